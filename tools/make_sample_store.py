"""Write the sample Hermes store that ships with hermes-context, with Hermes' own code.

Hermes Agent 0.19.0 (the e2e suite's cached venv, with this checkout's wheels) runs our lcm
inside it as the README says (``plugins.enabled: [hermes-context]``, ``context.engine:
lcm``) for a conversation of 40 turns against a scripted model on 127.0.0.1, at a window
small enough that it compacts several times; its AIAgent and SessionDB write state.db.
The store is then checkpointed and vacuumed (SQLite's own operations, no row touched) and
gzipped (its turns repeat themselves: a few hundred kilobytes become a few dozen) to
``hermes_core/hermes_agent/sessions/sample/state.db.gz``.

    python tools/make_sample_store.py
"""

from __future__ import annotations

import gzip
import json
import shutil
import sqlite3
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.e2e.environments import (  # noqa: E402
    HERMES,
    PLUGINS,
    cached_venv,
    environment,
    hermes_home,
    last_json,
    run,
    serving,
    with_wheels,
)

TARGET = ROOT / "hermes_core" / "hermes_agent" / "sessions" / "sample" / "state.db.gz"
TURNS = 40

DRIVE = r"""
import json, sys
from run_agent import AIAgent
from hermes_state import SessionDB

base_url, turns = sys.argv[1], int(sys.argv[2])
agent = AIAgent(base_url=base_url, api_key="sk-test", provider="custom", model="test-model",
                quiet_mode=True, session_id="sample-session", session_db=SessionDB())
history = None
topics = ["the billing export", "the nightly backup", "the search index", "the login flow"]
for n in range(turns):
    topic = topics[n % len(topics)]
    ask = f"Turn {n}: let us go on with {topic}; here are my notes on it. " + (
        f"The {topic} needs a look at its logs and its settings, step {n}. " * 180)
    if n == 1:
        ask = "From now on, answer in metric units. " + ask
    if n == 3:
        ask += " Keep the final report in /srv/reports/q3_final.md please."
    if n == turns - 3:
        ask = "Where did I ask you to keep the final report, /srv/reports/q3_final.md? " + ask
    history = agent.run_conversation(ask, conversation_history=history)["messages"]
agent.shutdown_memory_provider(history)
print(json.dumps({"compressions": agent.context_compressor.compression_count}))
"""


def main() -> int:
    with tempfile.TemporaryDirectory(prefix="sample-store-") as folder:
        scratch = Path(folder)
        wheels = scratch / "wheels"
        for project in (ROOT, ROOT / "hermes_lcm_example"):
            run(sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", wheels, project)
        python = with_wheels(
            cached_venv("hermes-agent-0.19.0", (HERMES, *PLUGINS)),
            sorted(str(w) for w in wheels.glob("*.whl")),
        )
        with serving() as server:
            home = hermes_home(
                scratch / "home", server.url, "lcm", enabled="hermes-context",
                context_length=64_000,
            )  # fmt: skip
            env = environment(home, python)
            env["HERMES_LCM_EMBEDDING_MODEL"] = "none"  # the sample is the same on any machine
            driven = last_json(run(python, "-c", DRIVE, server.url, str(TURNS), env=env).stdout)
        store = home / "state.db"
        with sqlite3.connect(store) as db:  # the WAL folded in, free pages dropped
            db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            db.execute("PRAGMA journal_mode=DELETE")
        db = sqlite3.connect(store)
        db.execute("VACUUM")
        db.close()
        TARGET.parent.mkdir(parents=True, exist_ok=True)
        with store.open("rb") as source, gzip.GzipFile(TARGET, "wb", mtime=0) as packed:
            shutil.copyfileobj(source, packed)  # mtime 0: the same store, the same bytes
    print(json.dumps({"written": str(TARGET), "bytes": TARGET.stat().st_size, **driven}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

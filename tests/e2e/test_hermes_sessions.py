"""Long conversations run by the real Hermes Agent 0.19.0 (its own loop, its own state.db):
our lcm stores each message once across compactions and a resume, and a plugin built on
Hermes' compressor compacts as often on our host as inside Hermes."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.environments import (
    LLMServer,
    environment,
    hermes_home,
    last_json,
    run,
    site_packages,
)

pytestmark = pytest.mark.e2e

#: Runs Hermes' own conversation loop for TURNS turns, or resumes the session from Hermes'
#: state.db first (as ``hermes chat --resume`` does), then ends it as the CLI does at exit.
SESSION = r"""
import json, sys
from types import SimpleNamespace
from run_agent import AIAgent
from hermes_state import SessionDB
from agent.tool_executor import execute_tool_calls_sequential

FACT = "the build cache lives in /var/cache/zeta-build"

base_url, phase, turns = sys.argv[1], sys.argv[2], int(sys.argv[3])
sid = "e2e-long-session"
agent = AIAgent(base_url=base_url, api_key="sk-test", provider="custom", model="test-model",
                quiet_mode=True, session_id=sid, session_db=SessionDB())
history = None
extra = {}
if phase == "resume":
    history = [m for m in SessionDB().get_messages_as_conversation(sid, repair_alternation=True)
               if m.get("role") != "session_meta"]
    extra["resumed_keys"] = sorted({k for m in history for k in m})
start = 0 if phase == "first" else 1000
for t in range(turns):
    n = start + t
    ask = f"Turn {n}: look at src/mod_{n}.py and say what it does " + "context " * 40
    if phase == "resume" and t == 1:  # a question said again verbatim
        ask = "Turn 0: look at src/mod_0.py and say what it does " + "context " * 40
    if phase == "first" and t == turns - 3:
        ask += " Remember: " + FACT
    history = agent.run_conversation(ask, conversation_history=history)["messages"]
if phase == "first":
    # a tool call dispatched as the model's would be: it sees the fact of three turns ago
    call = SimpleNamespace(id="call_1", type="function", function=SimpleNamespace(
        name="lcm_grep", arguments=json.dumps({"query": "zeta-build"})))
    live = list(history)
    execute_tool_calls_sequential(agent, SimpleNamespace(content=None, tool_calls=[call]),
                                  live, "task-1")
    extra["fact_found"] = "zeta-build" in str(live[-1].get("content"))
    # Hermes' /compress <focus> under the threshold
    before = len(history)
    history, _ = agent._compress_context(history, None, focus_topic="mod_3", force=True)
    extra["manual"] = [before, len(history)]
agent.shutdown_memory_provider(history)  # what the CLI does at exit
print(json.dumps({"messages": len(history), "session": agent.session_id,
                  "compressions": agent.context_compressor.compression_count,
                  **extra}))
"""


def _session(python: Path, home: Path, url: str, phase: str, turns: int) -> dict[str, Any]:
    done = run(python, "-c", SESSION, url, phase, str(turns), env=environment(home, python))
    return last_json(done.stdout)


def test_a_hermes_session_resumed_from_its_state_db_stores_each_message_once(
    tmp_path: Path, hermes_python: Path, llm_server: LLMServer
) -> None:
    home = hermes_home(
        tmp_path / "home", llm_server.url, "lcm", "hermes-context", "lcm:\n  threshold: 0.2\n"
    )
    first = _session(hermes_python, home, llm_server.url, "first", 150)
    assert first["compressions"] >= 2  # compactions happened inside Hermes' loop
    assert first["fact_found"]  # lcm_grep saw the live conversation (no compaction since)
    manual_before, manual_after = first["manual"]
    assert manual_after < manual_before  # /compress under the threshold shrank it
    store = sqlite3.connect(home / "lcm" / "lcm.db")
    rows, distinct = store.execute("SELECT COUNT(*), COUNT(DISTINCT fp) FROM messages").fetchone()
    assert (rows, distinct) == (300, 300)  # 150 turns: each user message and each answer once
    resumed = _session(hermes_python, home, llm_server.url, "resume", 60)
    assert "timestamp" in resumed["resumed_keys"]  # Hermes' bookkeeping came back with them
    rows, distinct = store.execute("SELECT COUNT(*), COUNT(DISTINCT fp) FROM messages").fetchone()
    # 60 more turns: 120 messages, the repeated question among them as a message of its own
    assert (rows, distinct) == (420, 419)
    repeats = store.execute(
        "SELECT COUNT(*) FROM messages WHERE role = 'user' AND body LIKE '%Turn 0: look%'"
    ).fetchone()[0]
    assert repeats == 2
    (tmp_path / "rows.json").write_text(
        json.dumps({"first": first, "resumed": resumed, "rows": rows}), encoding="utf-8"
    )


#: Drives one conversation: inside Hermes (its loop and compression) or on our host (a loop
#: like examples/agent_loop.py); prints how many passes compacted it.
PARITY = r"""
import json, os, sys
mode, home, base_url, turns = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])


def ask(n):
    return f"Turn {n}: read this log and keep what matters. " + f"line {n} of the log " * 700


if mode == "hermes":
    from run_agent import AIAgent
    agent = AIAgent(base_url=base_url, api_key="sk-test", provider="custom", model="test-model",
                    quiet_mode=True, session_id="parity")
    history = None
    for n in range(turns):
        history = agent.run_conversation(ask(n), conversation_history=history)["messages"]
    print(json.dumps({"passes": agent.context_compressor.compression_count,
                      "engine": agent.context_compressor.name,
                      "threshold": agent.context_compressor.threshold_tokens}))
else:
    from hermes_core import ContextHost
    from hermes_core._tokens import estimate_tokens
    host = ContextHost.from_config(os.path.join(home, "config.yaml"), env={"HERMES_HOME": home})
    host.update_model("test-model", 128000)
    host.start_session("parity")
    messages = [{"role": "system", "content": "You are a coding agent."}]
    largest = 0
    for n in range(turns):
        messages.append({"role": "user", "content": ask(n)})
        tokens = estimate_tokens(messages)
        if host.should_compress(tokens):
            messages = host.compress(messages, tokens)
        largest = max(largest, estimate_tokens(messages))
        answer = f"Answer {n}: noted. " + "detail " * 60
        messages.append({"role": "assistant", "content": answer})
        host.record_usage({"prompt_tokens": estimate_tokens(messages), "completion_tokens": 100})
    print(json.dumps({"passes": host.status()["passes_compressed"], "engine": host.engine_name,
                      "largest": largest, "threshold": host.status()["threshold_tokens"]}))
"""


@pytest.mark.xdist_group("real_plugins")  # it writes into the cached venv others read
def test_hermes_context_tuner_compacts_as_often_on_our_host_as_inside_hermes(
    tmp_path: Path, hermes_python: Path, llm_server: LLMServer
) -> None:
    run(
        hermes_python.parent / "hermes-context-tuner",
        "install-hermes",
        "--hermes-repo",
        site_packages(hermes_python),
        env=environment(tmp_path, hermes_python),
    )
    results = {}
    for mode in ("hermes", "host"):
        home = hermes_home(tmp_path / mode, llm_server.url, "context-tuner")
        done = run(
            hermes_python,
            "-c",
            PARITY,
            mode,
            home,
            llm_server.url,
            "80",
            env=environment(home, hermes_python),
        )
        results[mode] = last_json(done.stdout)
    print("compactions", results)
    assert results["hermes"]["engine"] == results["host"]["engine"] == "context-tuner"
    # told the whole window, as Hermes tells it: the same threshold on both hosts
    assert results["hermes"]["threshold"] == results["host"]["threshold"] > 0
    assert results["hermes"]["passes"] >= 2
    assert abs(results["hermes"]["passes"] - results["host"]["passes"]) <= 1, results
    assert max(llm_server.prompts("test-model")) < 128_000  # no request over the window
    assert results["host"]["largest"] < 128_000

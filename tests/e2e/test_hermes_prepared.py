"""Inside a real Hermes Agent 0.22 conversation, with an auxiliary LLM that takes seconds
per summary: lcm prepares the next pass's summary while the user reads, so
Hermes' own compression entry point never waits for the summariser.

``AIAgent.run_conversation`` carries the history from turn to turn, against a server on
127.0.0.1 that answers the model at once and the summariser (``aux-model``) after
:data:`AUX_SECONDS`, stamping each request's arrival. Between turns the script waits
while a preparation runs, as a person reading the answer would (no clock decides it).
The proof is not a duration: no summariser request arrives while a pass runs when
preparing ahead, and one does in each pass without it.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from hermes_core.testing._openai_server import serving_on_localhost
from tests.e2e.environments import (
    LLMServer,
    LLMServerHandler,
    environment,
    hermes_home,
    last_json,
    run,
)

pytestmark = pytest.mark.e2e

AUX_SECONDS = 2.0

#: Runs inside the Hermes venv: ``turns`` long turns; the span of each pass Hermes ran.
CONVERSATION = """
import json, sys, time
from run_agent import AIAgent
base_url, turns = sys.argv[1], int(sys.argv[2])
agent = AIAgent(base_url=base_url, api_key="sk-test", provider="custom", model="test-model",
                quiet_mode=True, session_id="e2e-prepared")
engine = agent.context_compressor
passes = []
compress = agent._compress_context
def timed(*args, **kwargs):
    started = time.time()
    try:
        return compress(*args, **kwargs)
    finally:
        passes.append([started, time.time()])
agent._compress_context = timed
history = None
for n in range(turns):
    text = f"Turn {n}: tell me about module {n}. " + "context " * 1500
    history = agent.run_conversation(text, conversation_history=history)["messages"]
    for _ in range(1200):  # the user reads while the engine prepares
        if engine.host.status()["preparations_running"] == 0:
            break
        time.sleep(0.05)
status = engine.get_status()
print(json.dumps({"passes": passes, "status": {
    k: v for k, v in status.items()
    if "prepar" in k or k in ("passes_compressed", "last_summary_source", "summaries_not_ready")
}}))
"""


class SlowSummariser(LLMServerHandler):
    """The e2e model server, but the summariser takes :data:`AUX_SECONDS` to answer."""

    arrivals: list[float]

    def do_POST(self) -> None:
        request = self.read_json()
        if request.get("model") == "aux-model":
            self.arrivals.append(time.time())
            threading.Event().wait(AUX_SECONDS)
        self.read_json = lambda: request  # type: ignore[method-assign]  # read once
        super().do_POST()
        # a connection kept alive across a slow answer came back as a 400 to Hermes'
        # client on its next request: each request gets a connection of its own
        self.close_connection = True


@contextmanager
def slow_server() -> Iterator[tuple[LLMServer, list[float]]]:
    state, arrivals = LLMServer(url=""), list[float]()
    handler = type("Handler", (SlowSummariser,), {"server_state": state, "arrivals": arrivals})
    with serving_on_localhost(handler) as url:
        state.url = url
        yield state, arrivals


def converse(python: Path, home: Path, url: str, turns: int) -> dict[str, Any]:
    out = run(python, "-c", CONVERSATION, url, str(turns), env=environment(home, python))
    return last_json(out.stdout)


def _asked_during(passes: list[list[float]], arrivals: list[float]) -> list[int]:
    """How many summariser requests arrived during each pass."""
    return [sum(start <= t <= end for t in arrivals) for start, end in passes]


def test_hermes_022_passes_never_wait_for_lcms_summaries_prepared_ahead(
    tmp_path: Path, current_hermes_python: Path
) -> None:
    # lcm is the engine our plugin runs inside Hermes: with context.engine: compressor
    # Hermes keeps its own compressor (docs/hermes-agent.md)
    lcm = "lcm:\n  threshold: 0.1\n  fresh_tail_messages: 6\n  leaf_chunk_tokens: 3000\n"
    results = {}
    for label, share in (("prepared", "0.5"), ("today", "0")):
        setting = lcm + f"compression:\n  prepare_at_share: {share}\n"
        with slow_server() as (server, arrivals):
            home = hermes_home(tmp_path / label, server.url, "lcm", "hermes-context", setting)
            result = converse(current_hermes_python, home, server.url, 22)
            results[label] = (result, _asked_during(result["passes"], arrivals))
        log = home / "logs" / "agent.log"
        # every summary was the summariser's: none failed over to a cut of the text
        assert "lcm.summary_llm_failed" not in (log.read_text() if log.exists() else "")
    (prepared, asked_prepared), (today, asked_today) = results["prepared"], results["today"]
    print(json.dumps({k: (r["status"], a) for k, (r, a) in results.items()}))
    # without preparing, Hermes' passes wait for the summariser: requests arrive in them
    assert today["status"]["passes_compressed"] >= 2 and sum(asked_today) >= 2
    # preparing ahead, as many passes compact, and not one summariser request arrives
    # while any pass Hermes runs is under way
    assert prepared["status"]["passes_compressed"] >= 2
    assert asked_prepared == [0] * len(prepared["passes"])
    assert prepared["status"]["prepared_summaries_used"] >= 2

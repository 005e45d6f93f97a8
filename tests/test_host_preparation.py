"""The host starts preparing the next pass in the background once a prompt nears the
threshold: the agent never waits for it, one runs per session at a time, and a failing
one changes nothing but a counter."""

from __future__ import annotations

import threading
from typing import Any

from hermes_core import ContextHost
from hermes_core.testing import host_for
from tests.host_engines import Recording

HISTORY = [
    {"role": "system", "content": "be brief"},
    {"role": "user", "content": "hello"},
    {"role": "assistant", "content": "hi"},
]


class Preparing(Recording):
    """Records each preparation and holds it until ``release`` is set."""

    def __init__(self) -> None:
        super().__init__()
        self.entered = threading.Semaphore(0)
        self.release = threading.Event()
        self.fail = False

    def prepare_compress(
        self,
        messages: Any,
        current_tokens: int | None = None,
        session_id: str = "",
        deadline: float | None = None,
    ) -> None:
        self._record(
            "prepare_compress",
            messages,
            session_id=session_id,
            current_tokens=current_tokens,
            deadline=deadline,
        )
        self.entered.release()
        assert self.release.wait(30)
        if self.fail:
            raise RuntimeError("the summariser is down")


def _host(share: float = 0.8) -> tuple[ContextHost, Preparing]:
    host = host_for(Preparing, config={"compression": {"prepare_at_share": share}})
    host.update_model("m", 10_000)  # threshold 0.75 of the budget the engine is told
    engine = host.engine
    assert isinstance(engine, Preparing) and engine.threshold_tokens > 0
    return host, engine


def _respond(host: ContextHost, share_of_threshold: float) -> None:
    tokens = int(host.engine.threshold_tokens * share_of_threshold)
    host.record_usage({"prompt_tokens": tokens, "completion_tokens": 10})


def test_nothing_is_prepared_below_the_share_of_the_threshold() -> None:
    host, engine = _host()
    _respond(host, 0.79)
    host.turn_complete(HISTORY)
    assert engine.calls_to("prepare_compress") == [] and host.status()["preparations_started"] == 0
    host.close()


def test_past_the_share_the_agent_goes_on_while_one_preparation_runs_per_session() -> None:
    host, engine = _host()
    _respond(host, 0.8)
    host.turn_complete(HISTORY, session_id="a")  # returns while the preparation is held
    assert engine.entered.acquire(timeout=30)
    [(args, keywords)] = engine.calls_to("prepare_compress")
    assert args[0] == HISTORY and args[0] is not HISTORY and keywords["session_id"] == "a"
    assert keywords["current_tokens"] == engine.last_prompt_tokens and keywords["deadline"]
    assert host.prepare_compress(HISTORY, session_id="a") is False  # one at a time
    assert host.status()["preparations_running"] == 1
    assert host.prepare_compress(HISTORY, session_id="b") is True  # another session's own
    assert engine.entered.acquire(timeout=30)
    engine.release.set()
    assert host.wait_for_preparations(30)
    assert host.status()["preparations_done"] == 2 and host.status()["preparations_running"] == 0
    assert host.prepare_compress(HISTORY, session_id="a") is True  # done: the next may start
    host.close()


def test_a_failing_preparation_is_counted_and_the_pass_runs_as_it_would_have() -> None:
    host, engine = _host()
    engine.fail = True
    engine.release.set()
    _respond(host, 0.9)
    assert host.prepare_compress(HISTORY) is True
    assert host.wait_for_preparations(30) and host.status()["preparation_failures"] == 1
    assert host.compress(HISTORY) == [HISTORY[0], HISTORY[1]]
    assert host.status()["preparations_done"] == 0
    host.close()


def test_a_share_of_zero_prepares_nothing() -> None:
    host, engine = _host(share=0.0)
    _respond(host, 1.0)
    assert host.prepare_compress(HISTORY) is False
    host.turn_complete(HISTORY)
    assert engine.calls_to("prepare_compress") == []
    host.close()


def test_an_engine_that_keeps_the_default_is_never_asked() -> None:
    host = host_for(Recording, config={"compression": {"prepare_at_share": 0.5}})
    host.update_model("m", 10_000)
    host.record_usage({"prompt_tokens": 9_000, "completion_tokens": 1})
    assert host.prepare_compress(HISTORY) is False
    assert host.status()["preparations_started"] == 0
    host.close()


def test_after_a_pass_the_next_preparation_starts_while_the_stale_one_still_runs() -> None:
    host, engine = _host()
    _respond(host, 0.9)
    assert host.prepare_compress(HISTORY, session_id="a") is True
    assert engine.entered.acquire(timeout=30)
    assert host.prepare_compress(HISTORY, session_id="a") is False  # one per pass
    assert host.compress(HISTORY, session_id="a") != HISTORY  # a pass compacted it
    _respond(host, 0.9)
    assert host.prepare_compress(HISTORY, session_id="a") is True  # for the new conversation
    assert engine.entered.acquire(timeout=30)
    assert host.status()["preparations_running"] == 2
    engine.release.set()
    assert host.wait_for_preparations(30) and host.status()["preparations_done"] == 2
    host.close()


def test_an_engine_with_nothing_to_prepare_now_is_handed_no_copy() -> None:
    host, engine = _host()
    engine.prepares_ahead = False  # the compressor and lcm without an LLM
    _respond(host, 0.9)
    assert host.prepare_compress(HISTORY) is False
    host.turn_complete(HISTORY)
    assert engine.calls_to("prepare_compress") == [] and host.status()["preparations_started"] == 0
    handed = host._handed.copied
    engine.prepares_ahead = True
    engine.release.set()
    assert host.prepare_compress(HISTORY) is True
    assert host._handed.copied == handed + len(HISTORY)  # copied once, when handed
    host.turn_complete(HISTORY)  # the next turn's preparation: nothing new to copy
    host.wait_for_preparations(30)
    assert host.prepare_compress(HISTORY) is True and host._handed.copied == handed + 3
    host.close()

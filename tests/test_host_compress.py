"""ContextHost.compress: snapshots, keyword passing, timeouts, one pass per session, checks."""

from __future__ import annotations

import copy
import functools
import threading
import time
from typing import Any

import pytest

from hermes_core import ContextEngine, hookimpl
from hermes_core.testing import EventCapture, host_for, sample_conversation
from tests.host_engines import Blocking, Recording, Returning, Vandal

MESSAGES = sample_conversation(4)


def messages() -> list[dict[str, Any]]:
    return copy.deepcopy(MESSAGES)


def _constant(value: str, engine: object) -> str:
    return value


def timeout_config(seconds: float) -> dict[str, Any]:
    return {"compression": {"context_timeout_seconds": seconds}}


def test_a_pass_returns_the_engines_valid_result_and_counts_it() -> None:
    host = host_for(Recording)
    result = host.compress(messages())
    assert result == [m for m in MESSAGES if m["role"] in ("system", "user")][-2:]
    assert host.status()["passes_compressed"] == 1


def test_the_engine_works_on_a_private_deep_copy() -> None:
    host = host_for(Vandal)
    original = messages()
    before = copy.deepcopy(original)
    result = host.compress(original)
    assert result is original  # the vandal returns [] -> invalid -> original kept
    assert original == before


@pytest.mark.parametrize(
    ("result", "detail"),
    [
        ("not a list", "returned str"),
        ([], "empty"),
        ([{"role": "tool", "tool_call_id": "nope", "content": "x"}], "follows no pending"),
        ([{"role": "bogus"}], "unknown role"),
        ([{"role": "user", "content": "ok"}, 7], "not a dict"),
    ],
)
def test_an_invalid_result_is_discarded_and_the_original_kept(
    logs: EventCapture, result: object, detail: str
) -> None:
    host = host_for(Returning)
    host.engine.result = result  # type: ignore[attr-defined]
    original = messages()
    assert host.compress(original) is original
    (event,) = logs.named("context_engine.compress_failed")
    assert event["reason"] == "invalid" and detail in event["detail"]
    assert host.status()["pass_invalid_results"] == 1


@pytest.mark.parametrize("timeout", [0, 5])
def test_an_exception_keeps_the_original_and_is_counted(logs: EventCapture, timeout: float) -> None:
    host = host_for(Returning, config=timeout_config(timeout))
    host.engine.result = RuntimeError("summariser exploded")  # type: ignore[attr-defined]
    original = messages()
    assert host.compress(original) is original
    (event,) = logs.named("context_engine.compress_failed")
    assert "summariser exploded" in event["detail"]
    assert host.status()["pass_failures"] == 1


def test_a_pass_past_the_timeout_keeps_the_original_and_drops_the_late_result(
    logs: EventCapture,
) -> None:
    host = host_for(Blocking, config=timeout_config(2))
    engine: Any = host.engine
    original = messages()
    before = copy.deepcopy(original)
    assert host.compress(original) is original
    assert not engine.finished.is_set()  # the host answered without waiting for the engine
    (event,) = logs.named("context_engine.compress_timeout")
    assert event["session_id"] is None  # no session started: the engine's current one
    engine.release.set()
    assert engine.finished.wait(5)
    # the late result appears nowhere: not in the caller's list, not in later answers (the
    # next pass of the session waits for the late one to let go of the session's lock)
    assert original == before
    engine.late = [{"role": "user", "content": "second result"}, MESSAGES[-1]]
    later = host.compress(original)
    assert later == [{"role": "user", "content": "second result"}, MESSAGES[-1]]
    assert all("LATE RESULT" not in str(m) for m in later + original)
    assert host.status()["pass_timeouts"] == 1


def test_one_pass_per_session_at_a_time(logs: EventCapture) -> None:
    # 3 s: a blocked pass always reaches it, and its worker always starts well within it
    # (0.3 s let a loaded machine turn "timeout" into "never started")
    host = host_for(Blocking, config=timeout_config(3))
    engine: Any = host.engine
    first = messages()
    assert host.compress(first, session_id="s1") is first  # times out, still running
    assert engine.started.is_set() and not engine.finished.is_set()
    second = messages()
    assert host.compress(second, session_id="s1") is second
    reasons = [e["reason"] for e in logs.named("context_engine.compress_timeout")]
    reasons += [e["reason"] for e in logs.named("context_engine.compress_failed")]
    assert reasons == ["timeout", "busy"]
    assert host.status()["pass_busy"] == 1
    engine.release.set()
    assert engine.finished.wait(5)


def test_passes_of_different_sessions_run_concurrently() -> None:
    # Each pass waits at a barrier that opens only when all three are inside
    # compress() at once: serial passes would break it (no wall-clock timing).
    barrier = threading.Barrier(3, timeout=20)

    class Meeting(Recording):
        @property
        def name(self) -> str:
            return "meeting"

        def compress(
            self, messages: Any, current_tokens: Any = None, focus_topic: Any = None
        ) -> Any:
            barrier.wait()
            return [*messages[:2], messages[-1]]  # the turn in progress is kept

    host = host_for(Meeting, config=timeout_config(30))
    results: dict[str, Any] = {}

    def run(session: str) -> None:
        results[session] = host.compress(messages(), session_id=session)

    threads = [threading.Thread(target=run, args=(f"s{i}",)) for i in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not barrier.broken, "the three sessions' passes did not run at the same time"
    assert sorted(results) == ["s0", "s1", "s2"]
    assert all(len(r) == 3 for r in results.values())
    assert host.status()["passes_compressed"] == 3


def test_keywords_reach_only_engines_that_accept_them() -> None:
    received: dict[str, dict[str, Any]] = {}

    def engine_with(signature: str) -> type[ContextEngine]:
        namespace: dict[str, Any] = {}
        exec(
            f"def compress(self, {signature}):\n"
            "    received[self.name] = {k: v for k, v in locals().items() if k != 'self'}\n"
            "    return messages\n",
            {"received": received},
            namespace,
        )
        label = signature.split(",")[-1].strip().split("=")[0].strip("*") or "messages"
        return type(
            f"Engine_{label}",
            (Recording,),
            {
                "name": property(functools.partial(_constant, label)),
                "compress": namespace["compress"],
            },
        )

    legacy = engine_with("messages, current_tokens=None, focus_topic=None")
    minimal = engine_with("messages")
    modern = engine_with("messages, current_tokens=None, focus_topic=None, **kwargs")
    for engine in (legacy, minimal, modern):
        host = host_for(engine)
        called = time.monotonic()
        host.compress(messages(), 1234, "auth", force=True, memory_context="mem")
        returned = time.monotonic()
    assert received["focus_topic"] == {
        "messages": MESSAGES,
        "current_tokens": 1234,
        "focus_topic": "auth",
    }
    assert received["messages"] == {"messages": MESSAGES}
    extra = dict(received["kwargs"]["kwargs"])
    deadline = extra.pop("deadline")
    assert extra == {"force": True, "memory_context": "mem", "session_id": None}
    # the host waits 120 s by default, from the moment of the call, whatever the machine
    assert called + 120 <= deadline <= returned + 120


def test_observers_hear_of_compressed_and_failed_passes(logs: EventCapture) -> None:
    heard: list[tuple[str, Any]] = []

    class Observer:
        @hookimpl
        def hermes_context_compressed(
            self, session_id: Any, before_tokens: Any, after_tokens: Any, engine_name: Any
        ) -> Any:
            heard.append(("compressed", (session_id, before_tokens > after_tokens, engine_name)))

        @hookimpl
        def hermes_context_pass_failed(self, session_id: Any, engine_name: Any, reason: Any) -> Any:
            heard.append(("failed", (session_id, engine_name, reason)))

    class Broken:
        @hookimpl
        def hermes_context_compressed(self, session_id: Any) -> Any:
            raise RuntimeError("analytics down")

    host = host_for(Returning)
    host.add_observer(Observer())
    host.add_observer(Broken())
    host.start_session("s7")
    host.engine.result = [{"role": "user", "content": "short"}, MESSAGES[-1]]  # type: ignore[attr-defined]
    assert host.compress(messages()) == [{"role": "user", "content": "short"}, MESSAGES[-1]]
    host.engine.result = "garbage"  # type: ignore[attr-defined]
    host.compress(messages())
    assert heard == [
        ("compressed", ("s7", True, "returning")),
        ("failed", ("s7", "returning", "invalid")),
    ]
    (failure,) = logs.named("hermes_plugin.hook_failed")
    assert failure["hook"] == "hermes_context_compressed"
    assert "analytics down" in failure["error"]


def test_observers_run_in_pluggys_order_and_show_in_its_tracing() -> None:
    order: list[str] = []

    def observer(label: str, tryfirst: bool = False) -> object:
        class Observer:
            @hookimpl(tryfirst=tryfirst)
            def hermes_context_compressed(self, engine_name: str) -> None:
                order.append(label)
                if label == "raises":
                    raise RuntimeError("observer down")

        return Observer()

    host = host_for(Returning)
    traced: list[str] = []
    manager = host.registry.plugin_manager
    manager.trace.root.setwriter(traced.append)
    undo = manager.enable_tracing()
    for label, first in [("first", False), ("early", True), ("raises", False), ("last", False)]:
        host.add_observer(observer(label, tryfirst=first))
    host.engine.result = [{"role": "user", "content": "short"}, MESSAGES[-1]]  # type: ignore[attr-defined]
    try:
        host.compress(messages())
    finally:
        undo()
    # pluggy's order: tryfirst, then the last registered first; one that raises stops no other
    assert order == ["early", "last", "raises", "first"]
    calls = [line for line in traced if "hermes_context_compressed [hook]" in line]
    assert len(calls) == 4, traced


@pytest.mark.parametrize("grow", [0, 1])
def test_a_pass_that_frees_nothing_is_no_gain_and_keeps_the_input(
    logs: EventCapture, grow: int
) -> None:
    host = host_for(Returning)
    original = messages()
    result = copy.deepcopy(original)
    result[-1]["content"] = str(result[-1]["content"]) + " and more" * grow
    host.engine.result = result  # type: ignore[attr-defined]
    seen: list[str] = []

    class Observer:
        @hookimpl
        def hermes_context_pass_failed(self, reason: str) -> None:
            seen.append(reason)

    host.add_observer(Observer())
    assert host.compress(original) is original
    status = host.status()
    assert (status["passes_compressed"], status["passes_no_gain"]) == (0, 1)
    (event,) = logs.named("context_engine.no_gain")
    assert event["after_tokens"] >= event["before_tokens"]
    assert logs.named("context_engine.compressed") == [] and seen == ["no_gain"]


def test_waiting_for_the_previous_pass_counts_against_the_timeout() -> None:
    from concurrent.futures import Future

    from hermes_core.host._passes import PassRunner

    asked: list[float] = []

    class RecordingPool:
        """Runs the job at once and records how long the caller would wait for it."""

        def submit(self, job: Any) -> Future[Any]:
            future: Future[Any] = Future()
            future.set_result(job())
            original = future.result

            def result(timeout: float | None = None) -> Any:
                asked.append(timeout if timeout is not None else -1.0)
                return original(timeout=timeout)

            future.result = result  # type: ignore[method-assign]
            return future

    readings = iter([100.0])

    def clock() -> float:  # the pass starts at 100 s; by the time it has the lock it is 110 s
        return next(readings, 110.0)

    pool: Any = RecordingPool()
    runner = PassRunner(lambda messages: messages[-1:], pool, clock=clock)
    holder = runner._lock_for("s")
    holder.acquire()  # the previous pass of session "s" is still running
    waiting = threading.Event()

    def finish_previous_pass() -> None:
        waiting.wait()
        holder.release()

    threading.Thread(target=finish_previous_pass).start()
    waiting.set()
    outcome = runner.run("s", messages(), {}, timeout=30.0)
    assert outcome.outcome == "compressed"
    (given,) = asked
    assert given == 20.0  # what is left of the 30 s after 10 s of waiting, not 30 s again


def test_a_result_whose_only_fault_is_broken_tool_pairs_is_repaired(logs: EventCapture) -> None:
    host = host_for(Returning)
    original = messages()
    orphan = {"role": "tool", "tool_call_id": "gone", "content": "a result whose call was folded"}
    unanswered = {
        "role": "assistant",
        "content": None,
        "tool_calls": [{"id": "late", "type": "function", "function": {"name": "f"}}],
    }
    host.engine.result = [original[0], orphan, original[-1], unanswered]  # type: ignore[attr-defined]
    result = host.compress(original)
    assert result == [original[0], original[-1]]
    (event,) = logs.named("context_engine.result_repaired")
    assert event["dropped_messages"] == 2 and "follows no pending tool call" in str(
        event["problems"]
    )
    assert host.status()["passes_compressed"] == 1


def test_a_result_with_other_faults_besides_tool_pairs_is_still_discarded() -> None:
    host = host_for(Returning)
    original = messages()
    orphan = {"role": "tool", "tool_call_id": "gone", "content": "x"}
    host.engine.result = [original[0], orphan, {"role": "wizard", "content": "?"}]  # type: ignore[attr-defined]
    assert host.compress(original) is original
    assert host.status()["pass_invalid_results"] == 1

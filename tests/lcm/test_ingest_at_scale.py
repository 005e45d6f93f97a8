"""Ingest keeps every message of any list, any text, any number of writers (issue 10, 1-3)."""

from __future__ import annotations

import json
import multiprocessing
import shutil
import tempfile
from collections.abc import Callable
from typing import Any

import pytest
from hermes_engine_lcm import LCMEngine
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hermes_core.testing._conversations import sample_conversation
from tests.lcm.sql import stored


def numbered(count: int) -> list[dict[str, Any]]:
    messages: list[dict[str, Any]] = [{"role": "system", "content": "You are an agent."}]
    for n in range(count - 1):
        role = "user" if n % 2 == 0 else "assistant"
        messages.append({"role": role, "content": f"token{n}x says something about item {n}"})
    return messages


def _started_then_ended(engine: LCMEngine, messages: list[dict[str, Any]]) -> None:
    engine.on_session_start("s")
    engine.on_session_end("s", messages)


FIRST_CALLS: dict[str, Callable[[LCMEngine, list[dict[str, Any]]], object]] = {
    "on_session_end": lambda e, m: _started_then_ended(e, m),
    "compress": lambda e, m: e.compress(m),
    "select_context": lambda e, m: e.select_context(
        m, conversation_messages=m[:-1], incoming_message=m[-1], budget_tokens=10_000
    ),
    "on_turn_complete": lambda e, m: e.on_turn_complete(m),
}


@pytest.mark.parametrize("call", FIRST_CALLS)
def test_a_long_first_ingest_keeps_every_message(
    make_lcm: Callable[..., LCMEngine], call: str
) -> None:
    engine = make_lcm(context_length=400_000)
    messages = numbered(2_500)
    FIRST_CALLS[call](engine, messages)
    assert stored(engine) == messages
    found = json.loads(engine.handle_tool_call("lcm_grep", {"query": "token0x"}))
    assert [hit["id"] for hit in found["results"]] == ["M2"]


#: Texts that repeat: long runs of the same message are where telling what is
#: new from what was handed back is hardest.
runs = st.lists(
    st.tuples(st.sampled_from(["ok", "same again", "x" * 300, "token"]), st.integers(1, 1_500)),
    min_size=1,
    max_size=6,
)


@settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck))
@given(runs, st.sampled_from(sorted(FIRST_CALLS)), st.integers(1, 4), st.integers(2_000, 30_000))
def test_lists_longer_than_any_window_with_long_runs_lose_nothing(
    new_store: Callable[[], dict[str, Any]],
    first: list[tuple[str, int]],
    call: str,
    later_turns: int,
    context_length: int,
) -> None:
    home = tempfile.mkdtemp(prefix="lcm-long-")
    settings_ = {"fresh_tail_messages": 8, "leaf_chunk_tokens": 4_000, "max_passes": 100}
    engine = LCMEngine({"lcm": {**settings_, **new_store()}}, hermes_home=home)
    engine.update_model("model", context_length)
    try:
        history: list[dict[str, Any]] = [{"role": "system", "content": "system"}]
        for index, (text, count) in enumerate(first):
            role = "user" if index % 2 == 0 else "assistant"
            history += [{"role": role, "content": text} for _ in range(count)]
        history.append({"role": "user", "content": "last of the first list"})
        FIRST_CALLS[call](engine, history)
        visible = engine.compress(list(history))
        for _ in range(later_turns):  # the same turn again and again, after compactions
            turn = [{"role": "user", "content": "ok"}, {"role": "assistant", "content": "ok"}]
            history += turn
            visible = engine.compress(visible + turn)
        assert stored(engine) == history
    finally:
        engine.close()
        shutil.rmtree(home, ignore_errors=True)


def test_a_lone_surrogate_is_stored_exactly_and_stops_nothing(
    make_lcm: Callable[..., LCMEngine],
) -> None:
    engine = make_lcm(context_length=2_000)
    odd = {"role": "tool", "tool_call_id": "c1", "content": "ls: \udcff.txt \ud83d"}
    history = sample_conversation(2)
    history.insert(3, odd)
    history[2]["tool_calls"][0]["id"] = "c1"
    engine.on_turn_complete(history)
    engine.select_context(history, conversation_messages=history, incoming_message=None)
    later = [*history, *sample_conversation(30)[1:]]
    result = engine.compress(later)
    assert result and engine.compression_count == 1  # compaction still works
    assert odd in stored(engine)  # exactly what the agent saw
    found = json.loads(engine.handle_tool_call("lcm_grep", {"query": "ls"}))
    (hit,) = [h for h in found["results"] if h["id"].startswith("M") and "txt" in h["snippet"]]
    described = json.loads(engine.handle_tool_call("lcm_describe", {"id": hit["id"]}))
    assert described["message"]["content"] == odd["content"]


def _append_turns(store: dict[str, Any], worker: int, barrier: Any, turns: int) -> None:
    """One gateway worker: for each turn, hand the conversation so far to its own engine."""
    engine = LCMEngine({"lcm": store})
    engine.update_model("model", 1_000_000)
    history = sample_conversation(turns)
    barrier.wait()
    for end in range(1, len(history) + 1, 1 + worker):  # the workers are at different points
        engine.on_turn_complete(history[:end], session_id="shared")
    engine.on_turn_complete(history, session_id="shared")
    engine.close()


def test_two_processes_appending_one_conversation_store_it_once(
    new_store: Callable[[], dict[str, Any]],
) -> None:
    store = new_store()
    LCMEngine({"lcm": store}).close()  # the schema exists before they start
    context = multiprocessing.get_context("spawn")
    barrier = context.Barrier(2)
    workers = [
        context.Process(target=_append_turns, args=(store, worker, barrier, 50))
        for worker in range(2)
    ]
    for process in workers:
        process.start()
    for process in workers:
        process.join(timeout=240)
        assert process.exitcode == 0
    engine = LCMEngine({"lcm": store})
    try:
        assert stored(engine, "shared") == sample_conversation(50)  # 201 messages, each once
    finally:
        engine.close()

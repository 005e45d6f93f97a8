"""sanitize_tool_pairs: every call keeps its result, every result its call."""

from __future__ import annotations

import random
from typing import Any

from hermes_core import sanitize_tool_pairs, validate_messages


def call(call_id: str) -> dict[str, Any]:
    return {"id": call_id, "type": "function", "function": {"name": "f", "arguments": "{}"}}


def assistant(*ids: str, content: str | None = None) -> dict[str, Any]:
    return {"role": "assistant", "content": content, "tool_calls": [call(i) for i in ids]}


def result(call_id: str) -> dict[str, Any]:
    return {"role": "tool", "tool_call_id": call_id, "content": f"result {call_id}"}


USER = {"role": "user", "content": "hi"}


def test_a_valid_sequence_comes_back_equal() -> None:
    messages = [USER, assistant("a", "b"), result("b"), result("a"), USER]
    assert sanitize_tool_pairs(messages) == messages


def test_orphaned_results_are_removed() -> None:
    assert sanitize_tool_pairs([USER, result("gone"), USER]) == [USER, USER]


def test_calls_without_results_are_stripped_and_empty_assistants_dropped() -> None:
    partial = sanitize_tool_pairs([assistant("a", "b"), result("a"), USER])
    assert partial == [assistant("a"), result("a"), USER]
    assert sanitize_tool_pairs([assistant("a"), USER]) == [USER]
    kept = sanitize_tool_pairs([assistant("a", content="thinking"), USER])
    assert kept == [{"role": "assistant", "content": "thinking"}, USER]


def test_duplicate_and_late_results_are_removed() -> None:
    messages = [assistant("a"), result("a"), result("a"), USER, result("a")]
    assert sanitize_tool_pairs(messages) == [assistant("a"), result("a"), USER]


def test_the_input_is_not_changed() -> None:
    messages = [assistant("a", "b"), result("a")]
    sanitize_tool_pairs(messages)
    assert messages == [assistant("a", "b"), result("a")]


def test_random_cuts_of_a_conversation_always_come_out_valid() -> None:
    rng = random.Random(11)
    for _ in range(500):
        messages: list[dict[str, Any]] = []
        for turn in range(rng.randint(1, 12)):
            messages.append({"role": "user", "content": f"u{turn}"})
            ids = [f"c{turn}_{k}" for k in range(rng.randint(0, 3))]
            if ids:
                messages.append(assistant(*ids))
                messages.extend(result(i) for i in rng.sample(ids, len(ids)))
            messages.append({"role": "assistant", "content": "ok"})
        start, end = sorted(rng.sample(range(len(messages) + 1), 2))
        cut = [m for i, m in enumerate(messages[start:end]) if rng.random() > 0.15 or i == 0]
        assert validate_messages(sanitize_tool_pairs(cut)) == []

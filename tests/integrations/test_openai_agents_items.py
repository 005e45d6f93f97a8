"""Agents SDK items reach the engine as chat messages and come back as the same items."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from hermes_core import validate_messages
from hermes_core.integrations.openai_agents import ItemMap, to_messages

text = st.text(max_size=30)


@st.composite
def turns(draw: Any) -> list[Any]:
    """User turns, each answered by function calls and their outputs (with reasoning items
    between), then an assistant message, as the SDK stores them."""
    items: list[Any] = []
    for turn in range(draw(st.integers(1, 10))):
        if draw(st.booleans()):
            items.append({"role": "user", "content": draw(text)})
        else:
            part = {"type": "input_text", "text": draw(text)}
            items.append({"type": "message", "role": "user", "content": [part]})
        for call in range(draw(st.integers(0, 3))):
            if draw(st.booleans()):
                items.append({"type": "reasoning", "id": f"rs_{turn}_{call}", "summary": []})
            items.append(
                {
                    "type": "function_call",
                    "call_id": f"call_{turn}_{call}",
                    "name": "lookup",
                    "arguments": json.dumps({"key": draw(text)}),
                }
            )
        for call in range(
            sum(1 for i in items if i.get("call_id", "").startswith(f"call_{turn}_"))
        ):
            output = {"type": "function_call_output", "call_id": f"call_{turn}_{call}"}
            items.append({**output, "output": draw(text)})
        answer = {"type": "output_text", "text": draw(text), "annotations": []}
        items.append(
            {"type": "message", "id": f"msg_{turn}", "role": "assistant", "content": [answer]}
        )
    return items


@given(turns())
def test_the_messages_are_a_valid_conversation_and_stand_for_every_item(items: list[Any]) -> None:
    messages, groups = to_messages(items)
    assert validate_messages(messages) == []
    assert [i for group in groups for i in group] == items  # each item once, in order


@given(turns(), st.data())
def test_kept_messages_come_back_as_the_very_items(items: list[Any], data: Any) -> None:
    mapping = ItemMap(items)
    messages = mapping.messages
    back = mapping.items([dict(m) for m in messages])  # copies, as an engine returns them
    assert len(back) == len(items) and all(b is i for b, i in zip(back, items, strict=True))
    first = data.draw(st.integers(0, len(messages) - 1))
    tail = mapping.items(messages[first:])
    assert tail == items[len(items) - len(tail) :]  # a suffix kept is that suffix of items


def test_a_summary_the_engine_made_becomes_a_message_item() -> None:
    items = [{"role": "user", "content": "hello"}]
    mapping = ItemMap(items)
    summary = {"role": "user", "content": "[summary of earlier turns]"}
    assert mapping.items([summary]) == [summary]
    assert mapping.items([summary])[0] is not items[0]

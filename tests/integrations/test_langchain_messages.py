"""LangChain messages reach the engine as OpenAI messages and come back without loss."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage, ToolMessage

from hermes_core import validate_messages
from hermes_core.integrations.langchain import MessageMap, from_openai, to_openai

text = st.text(min_size=0, max_size=40)
names = st.one_of(st.none(), st.from_regex(r"[a-z][a-z0-9_]{0,10}", fullmatch=True))
blocks = st.lists(st.builds(lambda t: {"type": "text", "text": t}, text), min_size=1, max_size=3)
content = st.one_of(text, blocks)
args = st.dictionaries(st.from_regex(r"[a-z]{1,6}", fullmatch=True), st.integers() | text)


@st.composite
def exchanges(draw: Any) -> list[Any]:
    """A system message, then user turns, each answered with tool calls and their results
    or with text."""
    messages: list[Any] = [SystemMessage(content=draw(text) or "sys")]
    for turn in range(draw(st.integers(1, 12))):
        messages.append(HumanMessage(content=draw(content), name=draw(names), id=f"h{turn}"))
        calls = [
            {"name": draw(names) or "tool", "args": draw(args), "id": f"c{turn}_{n}"}
            for n in range(draw(st.integers(0, 3)))
        ]
        messages.append(AIMessage(content="" if calls else draw(content), tool_calls=calls))
        for call in calls:
            messages.append(
                ToolMessage(content=draw(content), tool_call_id=call["id"], name=call["name"])
            )
    return messages


def _same(a: Any, b: Any) -> bool:
    fields = ("type", "content", "name")
    if any(getattr(a, f) != getattr(b, f) for f in fields):
        return False
    if isinstance(a, AIMessage):
        strip = [{k: c[k] for k in ("name", "args", "id")} for c in a.tool_calls]
        return strip == [{k: c[k] for k in ("name", "args", "id")} for c in b.tool_calls]
    if isinstance(a, ToolMessage):
        return bool(a.tool_call_id == b.tool_call_id)
    return True


@given(exchanges())
def test_every_field_both_formats_have_survives_the_round_trip(messages: list[Any]) -> None:
    plain = [to_openai(m) for m in messages]
    assert validate_messages(plain) == []  # what an engine gets is a valid conversation
    back = [from_openai(m) for m in plain]
    assert all(_same(a, b) for a, b in zip(messages, back, strict=True))


@given(exchanges())
def test_what_the_engine_hands_back_unchanged_is_the_original_object(messages: list[Any]) -> None:
    converted = MessageMap()
    plain = converted.to_openai(messages)
    kept = [dict(m) for m in plain[::2]]  # copies, as an engine returns them
    back = converted.from_openai(kept)
    assert all(b is m for b, m in zip(back, messages[::2], strict=True))


def test_equal_messages_map_back_one_to_one_in_order() -> None:
    first, second = HumanMessage("continue", id="a"), HumanMessage("continue", id="b")
    converted = MessageMap()
    plain = converted.to_openai([first, second])
    back = converted.from_openai(plain)
    assert [m.id for m in back] == ["a", "b"]  # not the first one twice: its id would clash


def test_a_message_the_engine_made_is_a_new_message_of_its_role() -> None:
    converted = MessageMap()
    converted.to_openai([HumanMessage("hello", id="h")])
    summary = {"role": "user", "content": "[summary of earlier turns]"}
    (back,) = converted.from_openai([summary])
    assert isinstance(back, HumanMessage) and back.id is None
    assert back.content == summary["content"]


def test_arguments_that_are_not_json_are_kept_as_the_model_wrote_them() -> None:
    call = {"id": "c", "type": "function", "function": {"name": "f", "arguments": "{oops"}}
    message = from_openai({"role": "assistant", "content": None, "tool_calls": [call]})
    assert isinstance(message, AIMessage)
    assert message.tool_calls[0]["args"] == {"arguments": "{oops"}

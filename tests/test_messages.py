"""validate_messages: what a provider would reject, reported per message."""

from __future__ import annotations

from typing import Any

import pytest

from hermes_core.messages import MAX_NESTING, validate_messages


def call(call_id: str, name: str = "read_file") -> dict[str, Any]:
    return {"id": call_id, "type": "function", "function": {"name": name, "arguments": "{}"}}


def problems(messages: list[Any]) -> list[str]:
    return [str(p) for p in validate_messages(messages)]


def test_a_plain_conversation_is_valid() -> None:
    assert (
        problems(
            [
                {"role": "system", "content": "s"},
                {"role": "user", "content": "hi"},
                {"role": "assistant", "content": [{"type": "text", "text": "hello"}]},
            ]
        )
        == []
    )


def test_tool_calls_answered_in_any_order_are_valid() -> None:
    assert (
        problems(
            [
                {"role": "assistant", "content": None, "tool_calls": [call("a"), call("b")]},
                {"role": "tool", "tool_call_id": "b", "content": "2"},
                {"role": "tool", "tool_call_id": "a", "content": "1"},
                {"role": "assistant", "content": "done"},
            ]
        )
        == []
    )


def test_an_orphaned_tool_result_is_reported() -> None:
    assert problems(
        [
            {"role": "user", "content": "hi"},
            {"role": "tool", "tool_call_id": "gone", "content": "x"},
        ]
    ) == ["message 1: tool result 'gone' follows no pending tool call"]


def test_an_unanswered_tool_call_is_reported_at_the_call() -> None:
    assert problems(
        [
            {"role": "assistant", "content": None, "tool_calls": [call("a")]},
            {"role": "user", "content": "next"},
        ]
    ) == ["message 0: tool call 'a' has no result"]


def test_an_unanswered_tool_call_at_the_end_is_reported() -> None:
    assert problems([{"role": "assistant", "tool_calls": [call("z")]}]) == [
        "message 0: tool call 'z' has no result"
    ]


def test_bad_items_roles_content_and_calls_are_reported() -> None:
    assert problems(
        [
            "not a dict",
            {"role": "robot", "content": "x"},
            {"role": "user", "content": 5},
            {"role": "assistant", "tool_calls": [{"function": {"name": "f"}}]},
            {"role": "assistant", "tool_calls": "nope"},
            {"role": ["user"], "content": "a list is not a role, and is unhashable"},
        ]
    ) == [
        "message 0: is a str, not a dict",
        "message 1: unknown role 'robot'",
        "message 2: content is a int, not text or parts",
        "message 3: a tool call has no id",
        "message 4: tool_calls is not a list",
        "message 5: unknown role ['user']",
    ]


def test_text_of_reads_strings_and_text_parts_only() -> None:
    from hermes_core.messages import text_of

    assert text_of({"role": "user", "content": "plain"}) == "plain"
    parts = [
        {"type": "text", "text": "a"},
        {"type": "image_url", "image_url": {"url": "data:x"}},
        {"type": "text", "text": "b"},
        "junk",
    ]
    assert text_of({"role": "user", "content": parts}) == "a b"
    assert text_of({"role": "assistant", "content": None}) == ""
    assert text_of("not a message") == ""


@pytest.mark.parametrize(
    "message",
    [
        {"role": "user", "content": {"type": "text", "text": "a dict as content"}},
        {"role": "user", "content": "x", "name": {"first": "ada"}},
        {"role": "assistant", "content": None, "refusal": ["no", {"why": "policy"}]},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {"id": "c", "type": "function", "function": {"name": "f", "arguments": ["a"]}}
            ],
        },
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [{"id": {"x": 1}, "type": "function", "function": {"name": "f"}}],
        },
        {"role": "user", "content": ({"type": "text", "text": "a tuple of parts"},)},
    ],
)
def test_a_copy_shares_nothing_mutable_whatever_the_shape(message: dict[str, Any]) -> None:
    import copy as copying

    from hermes_core.messages import copy_message

    original = copying.deepcopy(message)
    copied = copy_message(message)

    def mutate(node: Any) -> None:
        if isinstance(node, dict):
            for value in list(node.values()):
                mutate(value)
            node["mutated"] = True
        elif isinstance(node, list):
            for value in node:
                mutate(value)
            node.append("mutated")
        elif isinstance(node, tuple):
            for value in node:
                mutate(value)

    mutate(copied)
    assert message == original


def test_a_calling_message_with_a_container_where_a_scalar_belongs_is_copied_deeply() -> None:
    from hermes_core.messages import copy_message

    message = {
        "role": ["assistant"],
        "content": None,
        "tool_calls": [{"id": "c", "type": "function", "function": {"name": "f", "arguments": ""}}],
    }
    copied = copy_message(message)
    copied["role"].append("x")
    assert message["role"] == ["assistant"]


def test_render_turns_writes_roles_text_parts_and_tool_calls() -> None:
    from hermes_core.messages import render_turns

    turns = [
        {"role": "user", "content": [{"type": "text", "text": "see"}, {"type": "image_url"}]},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {"id": "c", "function": {"name": "read", "arguments": '{"p": 1}'}},
                {"id": "d", "function": {"name": "list", "arguments": {"dir": "/"}}},
                "not a call",
            ],
        },
        "not a message",
        {"role": "tool", "tool_call_id": "c", "content": "data"},
    ]
    assert render_turns(turns) == (
        "[user] see [image_url]\n\n"
        "[assistant]\n"
        '  -> calls read({"p": 1})\n'
        '  -> calls list({"dir": "/"})\n'
        "  -> calls ?()\n\n"
        "[tool] data"
    )


def _nested_to(depth: int) -> dict[str, Any]:
    """A user message whose content parts nest to exactly ``depth`` levels, the message
    itself the first."""
    inner: Any = {"type": "text", "text": "deep"}
    for _ in range(depth - 3):  # message -> content list -> part, then one dict a level
        inner = {"type": "text", "text": "x", "more": inner}
    return {"role": "user", "content": [inner]}


def test_nesting_is_valid_up_to_max_nesting_and_reported_one_level_past_it() -> None:
    assert validate_messages([_nested_to(MAX_NESTING)]) == []
    (problem,) = validate_messages([_nested_to(MAX_NESTING + 1)])
    assert problem.index == 0 and f"nests deeper than {MAX_NESTING} levels" in problem.problem

"""The summary message: alternating roles, a prefix, merged when both roles collide."""

from __future__ import annotations

from hermes_compressor.assembly import SUMMARY_END, SUMMARY_PREFIX, assemble
from hermes_core import validate_messages
from hermes_core.testing._conversations import assistant_calls, reply, tool_call, tool_result, user

SYSTEM = {"role": "system", "content": "s"}


def test_after_the_system_prompt_and_before_an_assistant_the_summary_is_a_user_message() -> None:
    result = assemble([SYSTEM], "the summary", [reply("a"), user("u")])
    assert result[1] == {
        "role": "user",
        "content": f"{SUMMARY_PREFIX}\n\nthe summary\n\n{SUMMARY_END}",
    }


def test_between_a_user_and_an_assistant_message_the_summary_is_merged() -> None:
    result = assemble([SYSTEM, user("u")], "S", [reply("a")])
    assert result[:2] == [SYSTEM, user("u")]
    assert result[2]["role"] == "assistant"
    assert result[2]["content"] == f"{SUMMARY_PREFIX}\n\nS\n\n{SUMMARY_END}\n\na"


def test_between_an_assistant_and_a_user_message_the_summary_is_merged_into_the_user() -> None:
    result = assemble([SYSTEM, reply("a")], "S", [user("u"), reply("b")])
    assert [m["role"] for m in result] == ["system", "assistant", "user", "assistant"]
    assert result[2]["content"].startswith(SUMMARY_PREFIX) and result[2]["content"].endswith("u")


def test_between_two_user_messages_the_summary_is_an_assistant_message() -> None:
    result = assemble([SYSTEM, user("u1")], "S", [user("u2")])
    assert [m["role"] for m in result] == ["system", "user", "assistant", "user"]


def test_merging_into_content_parts_prepends_a_text_part() -> None:
    parts = [{"type": "image_url", "image_url": {"url": "data:x"}}]
    result = assemble([SYSTEM, reply("a")], "S", [{"role": "user", "content": parts}])
    assert result[2]["content"][0] == {
        "type": "text",
        "text": f"{SUMMARY_PREFIX}\n\nS\n\n{SUMMARY_END}",
    }
    assert result[2]["content"][1:] == parts


def test_the_result_is_always_a_valid_sequence() -> None:
    tail = [tool_result("orphan", "x"), assistant_calls(tool_call("c1")), user("u")]
    result = assemble([SYSTEM], "S", tail)
    assert validate_messages(result) == []


def test_a_merged_summary_splits_back_into_summary_and_message() -> None:
    from hermes_compressor.assembly import split_summary

    merged = assemble([SYSTEM, reply("a")], "S", [user("u"), reply("b")])[2]
    assert split_summary(merged) == ("S", {"role": "user", "content": "u"})
    alone = assemble([SYSTEM], "T", [reply("a")])[1]
    assert split_summary(alone) == ("T", None)


def test_a_merged_message_keeps_its_text_exactly_through_merge_and_split() -> None:
    from hermes_compressor.assembly import split_summary

    for text in (" ", "  indented\n", "\n\nstarts with blank lines"):
        merged = assemble([SYSTEM, reply("a")], "S", [user(text)])[2]
        assert merged["content"].endswith(text)
        assert split_summary(merged) == ("S", {"role": "user", "content": text})
    empty = assemble([SYSTEM, reply("a")], "S", [user("")])[2]
    assert empty["content"] == f"{SUMMARY_PREFIX}\n\nS\n\n{SUMMARY_END}"

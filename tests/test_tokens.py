"""The characters/4 token estimate: text, parts, tool-call envelopes and images."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hermes_core._tokens import (
    IMAGE_TOKENS,
    MESSAGE_OVERHEAD,
    CharEstimator,
    estimate_message_tokens,
    estimate_tokens,
)


def test_text_is_characters_over_four_rounded_up() -> None:
    assert estimate_message_tokens({"role": "user", "content": "x" * 9}) == MESSAGE_OVERHEAD + 3
    assert estimate_message_tokens({"role": "user", "content": ""}) == MESSAGE_OVERHEAD
    assert estimate_message_tokens({"role": "assistant", "content": None}) == MESSAGE_OVERHEAD


def test_content_parts_count_their_text_and_images_a_flat_cost() -> None:
    message = {
        "role": "user",
        "content": [
            {"type": "text", "text": "x" * 8},
            {"type": "image_url", "image_url": {"url": "data:image/png;base64," + "A" * 10_000}},
        ],
    }
    assert estimate_message_tokens(message) == MESSAGE_OVERHEAD + 2 + IMAGE_TOKENS


def test_tool_call_envelopes_are_counted() -> None:
    calls = [{"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{}"}}]
    message = {"role": "assistant", "content": None, "tool_calls": calls}
    chars = len(json.dumps(calls, ensure_ascii=False))
    assert estimate_message_tokens(message) == MESSAGE_OVERHEAD + -(-chars // 4)


def test_a_list_sums_its_messages_and_the_estimator_agrees() -> None:
    messages = [{"role": "user", "content": "abcd"}, {"role": "assistant", "content": "efgh"}]
    assert estimate_tokens(messages) == 2 * (MESSAGE_OVERHEAD + 1)
    assert CharEstimator().count_messages(messages) == estimate_tokens(messages)


def test_non_dict_items_cost_only_the_envelope() -> None:
    assert estimate_message_tokens("junk") == MESSAGE_OVERHEAD


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
    lambda inner: (
        st.lists(inner, max_size=6)
        | st.dictionaries(st.text(max_size=8) | st.integers(), inner, max_size=6)
    ),
    max_leaves=40,
)


@given(JSON_VALUES)
def test_json_length_is_the_length_json_dumps_writes(value: object) -> None:
    from hermes_core._tokens import json_length

    assert json_length(value) == len(json.dumps(value, ensure_ascii=False, default=str))


def test_a_tool_call_message_is_estimated_without_writing_json(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    call = {"id": "c1", "type": "function", "function": {"name": "read", "arguments": '{"p": 1}'}}
    message = {"role": "assistant", "content": None, "tool_calls": [call]}
    expected = 4 + -(-len(json.dumps([call], ensure_ascii=False)) // 4)

    def no_json(*args: object, **kwargs: object) -> str:
        raise AssertionError("json.dumps called")

    monkeypatch.setattr(json, "dumps", no_json)
    assert estimate_message_tokens(message) == expected

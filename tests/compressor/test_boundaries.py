"""Head and tail boundaries: budgets, minimums, and the messages that must stay."""

from __future__ import annotations

from typing import Any

from hermes_compressor.assembly import SUMMARY_PREFIX
from hermes_compressor.boundaries import find_boundaries
from hermes_compressor.settings import CompressorSettings
from hermes_core.testing._conversations import (
    assistant_calls,
    reply,
    sample_conversation,
    tool_call,
    tool_result,
    user,
)


def bounds(messages: list[Any], budget: int = 0, **settings: Any) -> tuple[int, int]:
    tokens = [100] * len(messages)
    checked = CompressorSettings.from_config({"compression": settings})
    b = find_boundaries(messages, tokens, checked, budget, SUMMARY_PREFIX)
    return b.head, b.tail


def chat(pairs: int) -> list[Any]:
    return [{"role": "system", "content": "s"}] + [
        m for i in range(pairs) for m in (user(f"u{i}"), reply(f"a{i}"))
    ]


def test_the_head_is_the_system_prompt_plus_protect_first_n() -> None:
    assert bounds(chat(20), protect_first_n=2, protect_last_n=4)[0] == 3
    assert bounds(chat(20), protect_first_n=0, protect_last_n=4)[0] == 1


def test_the_head_never_ends_between_a_call_and_its_results() -> None:
    messages = sample_conversation(10)  # system, then per turn: user, call, result, reply
    head, _ = bounds(messages, protect_first_n=2, protect_last_n=4)
    assert head == 4
    assert messages[head - 1]["role"] == "tool"


def test_the_tail_takes_protect_last_n_within_twice_the_budget_then_what_fits_it() -> None:
    messages = chat(20)  # 100 tokens a message
    # six protected messages (600 tokens) fit twice a 300-token budget; no seventh fits
    assert bounds(messages, budget=300, protect_first_n=0, protect_last_n=6)[1] == len(messages) - 6
    # on a window too small for them, the budget wins: 400 tokens hold four
    assert bounds(messages, budget=200, protect_first_n=0, protect_last_n=6)[1] == len(messages) - 4
    # the budget counts the protected messages too: 1,000 tokens hold 10 messages
    assert (
        bounds(messages, budget=1_000, protect_first_n=0, protect_last_n=6)[1] == len(messages) - 10
    )


def test_the_tail_never_starts_on_a_tool_result() -> None:
    messages = sample_conversation(10)
    for last_n in range(1, 12):
        _, tail = bounds(messages, protect_first_n=0, protect_last_n=last_n)
        assert messages[tail]["role"] != "tool"


def test_the_last_real_user_message_and_the_last_text_reply_are_always_kept() -> None:
    messages = [
        {"role": "system", "content": "s"},
        *[m for i in range(10) for m in (user(f"u{i}"), reply(f"a{i}"))],
        user("the last real ask"),
        reply("the last text reply"),
        *[
            m
            for i in range(6)
            for m in (assistant_calls(tool_call(f"c{i}")), tool_result(f"c{i}", "r"))
        ],
    ]
    _, tail = bounds(messages, protect_first_n=0, protect_last_n=2)
    assert messages[tail]["content"] == "the last real ask"


def test_a_summary_is_not_the_last_real_user_message() -> None:
    messages = [
        {"role": "system", "content": "s"},
        user("real ask"),
        reply("answer"),
        *[
            m
            for i in range(8)
            for m in (assistant_calls(tool_call(f"c{i}")), tool_result(f"c{i}", "r"))
        ],
        {"role": "user", "content": SUMMARY_PREFIX + "\n\nold summary"},
        *[
            m
            for i in range(8, 12)
            for m in (assistant_calls(tool_call(f"c{i}")), tool_result(f"c{i}", "r"))
        ],
    ]
    _, tail = bounds(messages, protect_first_n=0, protect_last_n=2)
    assert messages[tail]["content"] == "real ask"


def test_min_tail_user_messages_pulls_in_earlier_asks() -> None:
    messages = chat(10)
    _, tail = bounds(messages, protect_first_n=0, protect_last_n=2, min_tail_user_messages=3)
    assert [m["content"] for m in messages[tail:] if m["role"] == "user"] == ["u7", "u8", "u9"]


def test_nothing_to_summarise_when_everything_is_protected() -> None:
    messages = sample_conversation(2)
    head, tail = bounds(messages, budget=10_000, protect_first_n=3, protect_last_n=20)
    assert tail == head

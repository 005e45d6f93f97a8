"""The compressor's prune below the threshold (Hermes Agent 0.22's
``prune_tool_results_only``): off unless ``compression.proactive_prune_tokens`` is set, the
head and tail kept, and made only when it frees enough, once per step of growth."""

from __future__ import annotations

from typing import Any

from hermes_compressor.engine import CompressorEngine
from hermes_core import estimate_tokens
from hermes_core.testing import host_for
from hermes_core.testing._conversations import assistant_calls, tool_call, tool_result, user

OUTPUT = "result row with some figures 12345\n" * 400  # 14,000 characters


def conversation(results: int, tail_results: int = 1) -> list[dict[str, Any]]:
    messages: list[dict[str, Any]] = [{"role": "system", "content": "agent"}, user("start")]
    for n in range(results + tail_results):
        messages += [
            assistant_calls(tool_call(f"c{n}", "query", table=f"t{n}")),
            tool_result(f"c{n}", f"{n} " + OUTPUT),
        ]
    return [*messages, {"role": "assistant", "content": "done"}, user("and now?")]


def engine(**compression: Any) -> CompressorEngine:
    keys = {
        "proactive_prune_tokens": 10_000,
        "proactive_prune_min_result_chars": 8_000,
        "protect_last_n": 4,
        **compression,
    }
    compressor = CompressorEngine({"compression": keys})
    compressor.update_model("m", 200_000)
    return compressor


def test_it_never_prunes_unless_the_trigger_is_set() -> None:
    messages = conversation(6)
    compressor = CompressorEngine({})
    compressor.update_model("m", 200_000)
    result, count = compressor.prune_tool_results_only(messages, 100_000)
    assert result is messages and count == 0


def test_past_the_trigger_old_results_become_descriptors_and_the_tail_stays() -> None:
    messages = conversation(6)
    result, count = engine().prune_tool_results_only(messages, 25_000)
    assert count == 5 and len(result) == len(messages)
    assert result[:4] == messages[:4]  # the system prompt and the head: protect_first_n = 3
    assert result[-4:] == messages[-4:]  # the tail: its tool result whole
    assert OUTPUT in result[-3]["content"]
    pruned = [m for m in result if str(m.get("content")).startswith("[pruned tool result]")]
    assert len(pruned) == 5 and all("query(" in m["content"] for m in pruned)
    assert estimate_tokens(result) < estimate_tokens(messages) - 5 * 3_000  # 3,500 each


def test_below_the_trigger_or_freeing_too_little_it_leaves_the_list() -> None:
    messages = conversation(6)
    assert engine().prune_tool_results_only(messages, 9_999) == (messages, 0)
    few = engine(proactive_prune_min_reclaim_tokens=100_000)
    result, count = few.prune_tool_results_only(messages, 25_000)
    assert result is messages and count == 0


def test_after_a_prune_the_next_waits_for_a_full_step_of_growth() -> None:
    compressor = engine()
    first, _ = compressor.prune_tool_results_only(conversation(6), 25_000)
    grown = [*first[:-1], *conversation(1, 0)[2:-1], first[-1]]  # one more result mid-list
    again, count = compressor.prune_tool_results_only(grown, 25_000)
    assert again is grown and count == 0  # freed little, grown less than a step
    bigger = [*first[:-1], *conversation(12, 0)[2:-1], first[-1]]
    _, count = compressor.prune_tool_results_only(bigger, 25_000)
    assert count == 12
    compressor.on_session_reset()  # a new conversation may prune at once
    _, count = compressor.prune_tool_results_only(conversation(6), 25_000)
    assert count == 5


def test_on_the_host_a_prune_keeps_every_tool_pair_valid() -> None:
    config = {"compression": {"proactive_prune_tokens": 10_000, "protect_last_n": 4}}
    with host_for(CompressorEngine, config=config) as host:
        host.update_model("m", 200_000)
        messages = conversation(6)
        result, count = host.prune_tool_results(messages, 25_000)
        assert count == 5 and host.status()["prunes"] == 1
        assert [m.get("tool_call_id") for m in result] == [m.get("tool_call_id") for m in messages]


def test_a_manual_pass_over_a_conversation_the_tail_budget_holds_keeps_a_short_tail() -> None:
    # 240 messages, about 15,000 tokens: the tail budget (19,200 of a 128,000 window) holds
    # them all, so an automatic pass frees nothing; a manual one folds all but 8, as
    # Hermes' compressor does
    from hermes_core.testing._conversations import sample_conversation

    messages = sample_conversation(60)[1:]
    compressor = CompressorEngine({})
    compressor.update_model("m", 128_000)
    assert compressor.compress(messages) == messages
    result = compressor.compress(messages, force=True)
    assert result[:3] == messages[:3] and result[-8:] == messages[-8:]
    assert len(result) == 12  # head, the summary, the tail

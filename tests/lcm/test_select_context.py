"""select_context: summaries, relevant originals and the fresh tail, within the budget, stable."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hermes_engine_lcm import LCMEngine
from hermes_engine_lcm.render import SUMMARY_PREFIX

from hermes_core import validate_messages
from hermes_core.testing.conversations import sample_conversation
from hermes_core.tokens import estimate_tokens

ASK = {"role": "user", "content": "Which hint did the runbook give for the deployment password?"}


def select(
    engine: LCMEngine,
    history: list[dict[str, Any]],
    incoming: dict[str, Any],
    budget: int = 6_000,
) -> list[dict[str, Any]]:
    result = engine.select_context(
        [*history, incoming],
        conversation_messages=history,
        incoming_message=incoming,
        budget_tokens=budget,
    )
    assert result is not None
    return result


def test_the_request_is_system_summaries_relevant_originals_then_the_tail(
    make_lcm: Callable[..., LCMEngine],
) -> None:
    engine = make_lcm(context_length=6_000)
    history = sample_conversation(
        30, facts={2: "The deployment password hint is 'blue heron' (runbook)."}
    )
    active = engine.compress(history)
    request = select(engine, active, ASK)
    assert validate_messages(request) == []
    assert active[0] == history[0] and active[1]["content"].startswith(SUMMARY_PREFIX)
    fact = history[9]
    assert fact["content"] == "The deployment password hint is 'blue heron' (runbook)."
    assert request == [*active[:2], fact, *active[2:], ASK]
    assert active[-8:] == history[-8:]
    assert estimate_tokens(request) <= 6_000


def test_nothing_changed_gives_an_equal_list(make_lcm: Callable[..., LCMEngine]) -> None:
    engine = make_lcm(context_length=6_000)
    active = engine.compress(sample_conversation(30))
    first = select(engine, active, ASK)
    assert select(engine, active, ASK) == first
    later = {"role": "user", "content": "And what about file 3?"}
    assert select(engine, [*active, ASK, {"role": "assistant", "content": "heron"}], later) != first


def test_relevant_originals_give_way_to_the_budget(make_lcm: Callable[..., LCMEngine]) -> None:
    engine = make_lcm(context_length=6_000)
    active = engine.compress(sample_conversation(30, facts={2: "deployment password hint runbook"}))
    tight = select(engine, active, ASK, budget=estimate_tokens(active) + 20)
    assert all(m.get("content") != "deployment password hint runbook" for m in tight)

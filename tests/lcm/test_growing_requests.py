"""Between passes a request is the one before with the new messages appended (the
provider's prompt cache serves its prefix), within the budget; a pass, new standing
instructions or a request that would not fit build one anew, leaving room to grow."""

from __future__ import annotations

import json
from collections.abc import Callable
from itertools import pairwise
from typing import Any

from hermes_engine_lcm import LCMEngine
from hermes_engine_lcm.growing import HEADROOM, Built, grown, is_recall, new_since
from hypothesis import given, settings
from hypothesis import strategies as st

from hermes_core._tokens import estimate_tokens

BUDGET = 3_000


def turn(n: int, words: int = 30) -> list[dict[str, Any]]:
    return [
        {"role": "user", "content": f"Step {n}: check module {n}. " + "detail " * words},
        {"role": "assistant", "content": f"Module {n} checked. " + "fine " * words},
    ]


def requests(engine: LCMEngine, turns: int, budget: int = BUDGET) -> list[list[dict[str, Any]]]:
    """The request before each reply of a conversation of ``turns`` turns."""
    history: list[dict[str, Any]] = [{"role": "system", "content": "You are an agent."}]
    made = []
    for n in range(turns):
        user, reply = turn(n)
        history.append(user)
        request = engine.select_context(
            history,
            conversation_messages=history[:-1],
            incoming_message=user,
            budget_tokens=budget,
        )
        assert request is not None
        made.append(request)
        history.append(reply)
        engine.on_turn_complete(history)
    return made


def extended(made: list[list[dict[str, Any]]]) -> float:
    pairs = list(pairwise(made))
    return sum(new[: len(old)] == old for old, new in pairs) / len(pairs)


def test_between_passes_each_request_extends_the_one_before(
    make_lcm: Callable[..., LCMEngine],
) -> None:
    made = requests(make_lcm(context_length=100_000), 80)
    assert all(estimate_tokens(r) <= BUDGET for r in made)
    # the conversation outgrows the budget many times over: a few requests are built anew
    assert extended(made) >= 0.9, extended(made)
    assert extended(made) < 1.0


def test_without_growing_each_request_is_built_for_its_own_ask(
    make_lcm: Callable[..., LCMEngine],
) -> None:
    made = requests(make_lcm(context_length=100_000, grow_requests=False), 80)
    assert all(estimate_tokens(r) <= BUDGET for r in made)
    assert extended(made) < 0.5, extended(made)


def test_a_request_built_anew_leaves_room_to_grow_into(
    make_lcm: Callable[..., LCMEngine],
) -> None:
    made = requests(make_lcm(context_length=100_000), 80)
    pairs = list(pairwise(made))
    anew = [new for old, new in pairs if new[: len(old)] != old]
    assert anew and all(estimate_tokens(r) <= BUDGET * (1 - HEADROOM) for r in anew)


def test_a_pass_builds_the_next_request_anew(make_lcm: Callable[..., LCMEngine]) -> None:
    engine = make_lcm(context_length=100_000)
    history = [{"role": "system", "content": "You are an agent."}]
    for n in range(30):
        history += turn(n)
    first = engine.select_context(history, budget_tokens=BUDGET)
    engine.compress(history, force=True)
    history += turn(30)
    after = engine.select_context(history, budget_tokens=BUDGET)
    assert first is not None and after is not None
    assert after[: len(first)] != first


def test_new_standing_instructions_build_the_next_request_anew(
    make_lcm: Callable[..., LCMEngine],
) -> None:
    engine = make_lcm(context_length=100_000)
    history = [{"role": "system", "content": "You are an agent."}, *turn(0)]
    first = engine.select_context(history, budget_tokens=BUDGET)
    history += [
        {"role": "user", "content": "From now on, answer in French."},
        {"role": "assistant", "content": "D'accord."},
    ]
    after = engine.select_context(history, budget_tokens=BUDGET)
    assert first is not None and after is not None
    assert after[: len(first)] != first
    assert any("answer in French" in str(m["content"]) for m in after)


@settings(max_examples=200, deadline=None)
@given(
    kept=st.lists(st.integers(0, 5_000), max_size=20),
    new=st.lists(st.integers(0, 5_000), max_size=20),
    budget=st.integers(0, 40_000),
    held_back=st.integers(0, 3),
)
def test_a_grown_request_never_exceeds_its_budget(
    kept: list[int], new: list[int], budget: int, held_back: int
) -> None:
    request = [{"role": "user", "content": "x" * size} for size in kept]
    history = [*request, *({"role": "user", "content": "y" * size} for size in new)]
    built = Built(request, len(request), request[-1] if request else None, "None", 0)
    gained = new_since(built, history, "None", 0)
    assert gained is not None
    result = grown(built, gained, budget)
    if result is not None:
        assert estimate_tokens(result) <= budget
        assert result[: len(request)] == request
    # a history that is not the one the request was built from never grows it
    if request and held_back:
        other = [*request[:-1], {"role": "user", "content": "changed"}, *history[len(request) :]]
        assert new_since(built, other, "None", 0) is None


def test_a_new_ask_brings_what_it_needs_word_for_word_and_keeps_the_prefix(
    make_lcm: Callable[..., LCMEngine],
) -> None:
    engine = make_lcm(context_length=100_000)
    fact = "Remember this: the vault code is ZEBRA-4471."
    history: list[dict[str, Any]] = [
        {"role": "system", "content": "You are an agent."},
        {"role": "user", "content": fact},
        {"role": "assistant", "content": "Noted."},
    ]
    previous = None
    for n in range(60):
        user, reply = turn(n)
        history.append(user)
        previous = engine.select_context(
            history, conversation_messages=history[:-1], incoming_message=user,
            budget_tokens=BUDGET,
        )  # fmt: skip
        history.append(reply)
        engine.on_turn_complete(history)
    assert previous is not None
    assert fact not in str(previous)  # folded out of the grown request by now
    ask = {"role": "user", "content": "What was the vault code I gave you?"}
    history.append(ask)
    request = engine.select_context(
        history, conversation_messages=history[:-1], incoming_message=ask, budget_tokens=BUDGET
    )
    assert request is not None
    assert request[: len(previous)] == previous  # the cached prefix holds
    (note,) = [m for m in request if is_recall(m)]
    assert fact in note["content"] and request[-1] == ask
    assert request[-2] == note  # just before the ask
    # LCM's own text: an agent that keeps it in its history never gets it stored
    engine.on_turn_complete([*history, note, {"role": "assistant", "content": "ZEBRA-4471"}])
    found = json.loads(engine.handle_tool_call("lcm_grep", {"query": "word for word"}))
    assert found["results"] == [], found

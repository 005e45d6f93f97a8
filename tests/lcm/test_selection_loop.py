"""A request LCM assembles fills the budget from its store; the usage it reports must not
make LCM fold an agent context that is small (a pass that gains nothing, every turn)."""

from __future__ import annotations

from collections.abc import Callable

from hermes_engine_lcm import LCMEngine

from hermes_core._tokens import estimate_tokens
from hermes_core.testing._conversations import coding_session


def test_the_size_of_its_own_request_does_not_start_a_pass(
    make_lcm: Callable[..., LCMEngine],
) -> None:
    engine = make_lcm(context_length=60_000)  # folds at 45,000
    history = coding_session(turns=200)  # 75,832 tokens
    engine.on_turn_complete(history)  # all stored
    held = history
    for _ in range(20):  # fold until the agent holds a small context
        held = engine.compress(held, force=True)
        if estimate_tokens(held) < engine.threshold_tokens / 2:
            break
    assert estimate_tokens(held) < engine.threshold_tokens
    incoming = {"role": "user", "content": "which files did we touch in the billing module?"}
    request = engine.select_context(
        [*held, incoming],
        conversation_messages=held,
        incoming_message=incoming,
        budget_tokens=58_000,
    )
    assert request is not None
    tokens = estimate_tokens(request)
    assert tokens >= engine.threshold_tokens  # the request is filled from the store
    assert engine.should_compress_info(tokens) == (False, "request_assembled_by_lcm")
    engine.on_turn_complete([*held, incoming])  # the turn is over: usage decides again
    assert engine.should_compress_info(tokens) == (True, None)


def test_a_large_agent_context_is_still_folded_after_a_request(
    make_lcm: Callable[..., LCMEngine],
) -> None:
    engine = make_lcm(context_length=60_000)
    history = coding_session(turns=200)
    assert estimate_tokens(history) >= engine.threshold_tokens
    incoming = {"role": "user", "content": "and now?"}
    engine.select_context(
        [*history, incoming],
        conversation_messages=history,
        incoming_message=incoming,
        budget_tokens=58_000,
    )
    assert engine.should_compress_info(estimate_tokens(history)) == (True, None)

"""LCM carries the user's standing instructions into every request and compacted history."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from hermes_engine_lcm import LCMEngine

from hermes_core import StandingInstructions, validate_messages
from hermes_core._tokens import estimate_tokens
from hermes_core.testing._conversations import agent_turn, sample_conversation
from tests.lcm.requests import select

RULE = "Never write my phone number into a file."


def _history(turns: int) -> list[dict[str, Any]]:
    history = sample_conversation(2)
    history += [{"role": "user", "content": RULE}, {"role": "assistant", "content": "Noted."}]
    for n in range(turns):
        history += agent_turn(n)
    return history


def _select(engine: LCMEngine, history: list[Any], ask: str, budget: int) -> list[Any]:
    return select(engine, history, {"role": "user", "content": ask}, budget)


def test_every_request_carries_the_instruction_however_far_back_and_fits(
    make_lcm: Callable[..., LCMEngine],
) -> None:
    engine = make_lcm(context_length=8_000)
    history = _history(150)
    engine.on_turn_complete(history)
    for budget in (2_000, 4_000, 8_000):
        request = _select(engine, history, "What did the last test run print?", budget)
        blocks = [m for m in request if StandingInstructions.is_block(m)]
        assert len(blocks) == 1 and f"- {RULE}" in blocks[0]["content"]
        assert request[0]["role"] == "system" and request[1] is blocks[0]
        assert estimate_tokens(request) <= budget and validate_messages(request) == []


def test_a_compacted_history_carries_it_and_is_stored_once(
    make_lcm: Callable[..., LCMEngine],
) -> None:
    engine = make_lcm(context_length=6_000)
    history = _history(150)
    compacted = engine.compress(history)
    assert any(StandingInstructions.is_block(m) for m in compacted)
    stored = engine.get_status()["stored_messages"]
    engine.on_turn_complete([*compacted, *agent_turn(150)])  # handed back with the block
    assert engine.get_status()["stored_messages"] == stored + 4  # the turn only, no block
    assert engine.get_status()["standing_instructions"] == [RULE]


def test_a_new_engine_on_the_store_reads_the_rule_from_the_compacted_history(
    make_lcm: Callable[..., LCMEngine],
) -> None:
    first = make_lcm(context_length=6_000)
    compacted = first.compress(_history(150))
    second = make_lcm(context_length=6_000)  # a restart: nothing in memory
    request = _select(second, [*compacted, *agent_turn(150)], "and now?", 4_000)
    assert any(StandingInstructions.is_block(m) and RULE in m["content"] for m in request)


def test_lcm_instructions_lists_them_in_the_users_words(
    make_lcm: Callable[..., LCMEngine],
) -> None:
    engine = make_lcm()
    engine.on_turn_complete(_history(3))
    answer = json.loads(engine.handle_tool_call("lcm_instructions", {}))
    assert answer == {"instructions": [RULE], "left_out_for_room": 0}
    assert "lcm_instructions" in [s["name"] for s in engine.get_tool_schemas()]

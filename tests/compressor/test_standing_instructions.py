"""The compressor carries the user's standing instructions through every compaction."""

from __future__ import annotations

from typing import Any

from hermes_compressor import CompressorEngine
from hermes_core import StandingInstructions, validate_messages
from hermes_core.testing._conversations import agent_turn, sample_conversation

RULE = "From now on, show me the draft before sending anything."


def _engine(window: int = 8_000) -> CompressorEngine:
    engine = CompressorEngine({"compression": {"protect_first_n": 1, "protect_last_n": 6}})
    engine.update_model("m", window)
    return engine


def _history(turns: int) -> list[dict[str, Any]]:
    history = sample_conversation(2)
    history.append({"role": "user", "content": RULE})
    history.append({"role": "assistant", "content": "Understood."})
    for n in range(turns):
        history += agent_turn(n)
    return history


def _blocks(messages: list[Any]) -> list[str]:
    return [m["content"] for m in messages if StandingInstructions.is_block(m)]


def test_an_instruction_folded_into_a_summary_is_carried_verbatim_through_every_pass() -> None:
    engine = _engine()
    history = _history(60)
    for n in range(3):  # pass after pass, the history growing between them
        history = engine.compress(history)
        (block,) = _blocks(history)
        assert f"- {RULE}" in block
        assert history[0]["role"] == "system" and StandingInstructions.is_block(history[1])
        assert validate_messages(history) == []
        history += [m for k in range(60 * (n + 1), 60 * (n + 2)) for m in agent_turn(k)]
    assert engine.get_status()["standing_instructions"] == [RULE]


def test_a_revoked_instruction_leaves_the_block() -> None:
    engine = _engine()
    history = engine.compress(_history(60))
    history.append({"role": "user", "content": "Forget what I said about the draft, just send."})
    history += [m for k in range(60, 120) for m in agent_turn(k)]
    assert _blocks(engine.compress(history)) == []


def test_the_block_never_takes_the_history_past_the_window() -> None:
    engine = _engine(window=2_000)
    history = _history(40)
    for n in range(6):
        rule = f"Always mention the code word q{n}z in replies."
        history.append({"role": "user", "content": rule})
    compacted = engine.compress(history)
    assert sum(engine.count_tokens(m) for m in compacted) <= 2_000

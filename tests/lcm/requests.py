"""Building a request from an LCM engine the way an agent asks for one."""

from __future__ import annotations

from typing import Any

from hermes_engine_lcm import LCMEngine


def select(
    engine: LCMEngine,
    history: list[dict[str, Any]],
    incoming: dict[str, Any],
    budget: int = 6_000,
) -> list[dict[str, Any]]:
    """The request for ``incoming`` after ``history``, within ``budget`` (never None)."""
    result = engine.select_context(
        [*history, incoming],
        conversation_messages=history,
        incoming_message=incoming,
        budget_tokens=budget,
    )
    assert result is not None
    return result

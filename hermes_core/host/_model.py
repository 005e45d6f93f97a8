"""Telling the engine about the model: its thresholds once, then ``update_model``."""

from __future__ import annotations

from collections.abc import Mapping

from hermes_core.host._engine_calls import EngineCalls

__all__ = ["tell_model"]


def tell_model(
    calls: EngineCalls,
    thresholds: Mapping[str, float],
    first: bool,
    model: str,
    context_length: int,
    offered: dict[str, str],
) -> None:
    """``model_thresholds`` assigned on the ``first`` call (a property setter
    of the engine's is engine code: contained), then the engine's ``update_model``, bounded,
    with the keywords of ``offered`` it accepts."""
    engine = calls.engine
    if first:
        calls.inline(
            "model_thresholds", lambda: setattr(engine, "model_thresholds", thresholds), None
        )
    calls.bounded(
        "update_model",
        calls.methods["update_model"],
        None,
        model,
        context_length,
        **calls.keywords("update_model", offered),
    )

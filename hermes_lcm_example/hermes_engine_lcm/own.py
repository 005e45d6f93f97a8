"""What LCM itself writes into a request (a summary, a stub, a note of recalled originals,
the standing instructions' block): never stored as a message, never read as the user's."""

from __future__ import annotations

from typing import Any

from hermes_core import StandingInstructions
from hermes_engine_lcm.growing import is_recall
from hermes_engine_lcm.pruning import is_lcm_stub
from hermes_engine_lcm.render import is_lcm_summary

__all__ = ["is_lcm_own"]


def is_lcm_own(message: Any) -> bool:
    """Whether ``message`` is LCM's own text (a summary, a stub, a note of recalled
    originals), never stored as a message."""
    return (
        is_lcm_summary(message)
        or is_lcm_stub(message)
        or is_recall(message)
        or StandingInstructions.is_block(message)
    )

"""The block of standing instructions an engine puts in a request: how it begins, and how
an engine knows its own."""

from __future__ import annotations

from typing import Any

from hermes_core.messages import text_of

__all__ = ["HEADER", "is_block"]

#: How the block of carried instructions begins (engines find their own block by it).
HEADER = "Standing instructions from the user, in force for the rest of this session:"


def is_block(message: Any) -> bool:
    """Whether ``message`` is a block of carried instructions (put in by an engine)."""
    return isinstance(message, dict) and text_of(message).startswith(HEADER)

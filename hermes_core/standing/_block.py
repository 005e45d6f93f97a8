"""The block of standing instructions an engine puts in a request: how it begins, and how
an engine knows its own.

A block is a ``system`` message that begins with :data:`HEADER`. The role is what makes it
one: a tool result, a web page, a reply or a user message can begin with the same words,
and none of them is a block (it is never adopted, stripped or skipped as one)."""

from __future__ import annotations

from typing import Any

from hermes_core.messages import text_of

__all__ = ["HEADER", "is_block"]

#: How the block of carried instructions begins (engines find their own block by it).
HEADER = "Standing instructions from the user, in force for the rest of this session:"


def is_block(message: Any) -> bool:
    """Whether ``message`` is a block of carried instructions an engine put in: a ``system``
    message beginning with :data:`HEADER`, and nothing else that imitates one."""
    return (
        isinstance(message, dict)
        and message.get("role") == "system"
        and text_of(message).startswith(HEADER)
    )

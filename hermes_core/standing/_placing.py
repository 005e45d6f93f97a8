"""Where the block of standing instructions goes in a list of messages: right after the
system messages it starts with, in place of any block an earlier pass put there."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from hermes_core.standing._block import is_block

__all__ = ["with_block", "without_blocks"]


def without_blocks(messages: Sequence[Any]) -> list[Any]:
    """``messages`` without the blocks of standing instructions an engine put in."""
    return [m for m in messages if not is_block(m)]


def with_block(messages: Sequence[Any], block: dict[str, Any] | None) -> list[Any]:
    """``messages`` with ``block`` (when there is one) after their leading system messages,
    and no other block."""
    kept = without_blocks(messages)
    if block is None:
        return kept
    at = 0
    while at < len(kept) and isinstance(kept[at], dict) and kept[at].get("role") == "system":
        at += 1
    return [*kept[:at], block, *kept[at:]]

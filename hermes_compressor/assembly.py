"""Putting head, summary and tail together so roles alternate and tool pairs stay whole."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from hermes_core import sanitize_tool_pairs

__all__ = ["SUMMARY_PREFIX", "assemble"]

#: The first line of every summary this compressor writes.
SUMMARY_PREFIX = (
    "[Context summary] Earlier turns of this conversation were compacted into this reference "
    "summary. It is background for what follows, not a new instruction."
)


def _role(message: Any) -> Any:
    return message.get("role") if isinstance(message, dict) else None


def assemble(head: Sequence[Any], summary: str, tail: Sequence[Any]) -> list[Any]:
    """``head + [summary message] + tail``, valid as a chat sequence.

    The summary takes the role that differs from both neighbours (``user``
    when free); when the head ends with ``assistant`` and the tail starts with
    ``user`` either role would collide, so the summary is merged into the
    first tail message instead.
    """
    text = f"{SUMMARY_PREFIX}\n\n{summary}"
    before = _role(head[-1]) if head else None
    after = _role(tail[0]) if tail else None
    if before == "system":
        before = None
    if before != "user" and after != "user":
        role = "user"
    elif before != "assistant" and after != "assistant":
        role = "assistant"
    else:
        role = None
    if role is not None:
        result = [*head, {"role": role, "content": text}, *tail]
    else:
        first = dict(tail[0])
        content = first.get("content")
        if isinstance(content, list):
            first["content"] = [{"type": "text", "text": text}, *content]
        else:
            first["content"] = f"{text}\n\n{content or ''}".rstrip()
        result = [*head, first, *tail[1:]]
    return sanitize_tool_pairs(result)

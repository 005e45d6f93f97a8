"""Putting head, summary and tail together so roles alternate and tool pairs stay whole."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from hermes_core import role_of, sanitize_tool_pairs

__all__ = ["SUMMARY_END", "SUMMARY_PREFIX", "assemble", "split_summary"]

#: The first line of every summary this compressor writes.
SUMMARY_PREFIX = (
    "[Context summary] Earlier turns of this conversation were compacted into this reference "
    "summary. It is background for what follows, not a new instruction."
)


#: The line that ends every summary, so a summary merged into a message can be split off again.
SUMMARY_END = "[End of context summary]"


def split_summary(message: dict[str, Any]) -> tuple[str, dict[str, Any] | None]:
    """The summary text of a summary message, and what was merged after it (or None)."""
    content = message.get("content")
    if isinstance(content, list):
        first = content[0] if content and isinstance(content[0], dict) else {}
        summary_text = str(first.get("text", ""))
        rest = content[1:]
        remainder = {**message, "content": rest} if rest else None
    else:
        text = str(content)
        summary_text, _, after = text.partition(SUMMARY_END)
        after = after.removeprefix("\n\n")  # what assemble put between them
        remainder = {**message, "content": after} if after else None
    summary_text = summary_text.removeprefix(SUMMARY_PREFIX).replace(SUMMARY_END, "").strip()
    return summary_text, remainder


def assemble(head: Sequence[Any], summary: str, tail: Sequence[Any]) -> list[Any]:
    """``head + [summary message] + tail``, valid as a chat sequence.

    The summary takes the role that differs from both neighbours (``user``
    when free); when the head ends with ``assistant`` and the tail starts with
    ``user`` either role would collide, so the summary is merged into the
    first tail message instead.
    """
    text = f"{SUMMARY_PREFIX}\n\n{summary}\n\n{SUMMARY_END}"
    before = role_of(head[-1]) if head else None
    after = role_of(tail[0]) if tail else None
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
            first["content"] = f"{text}\n\n{content}" if content else text
        result = [*head, first, *tail[1:]]
    return sanitize_tool_pairs(result)

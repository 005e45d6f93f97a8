"""Messages as text: the plain text of one, its role, a run of turns for a summariser."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

__all__ = ["render_turns", "role_of", "text_of"]


def role_of(message: Any) -> Any:
    """The ``role`` of ``message``; None for a message that is not a dict."""
    return message.get("role") if isinstance(message, dict) else None


def text_of(message: Any) -> str:
    """The text of ``message``: its string content, or its text parts joined by spaces.

    Image and other non-text parts, ``None`` content and non-dict messages give
    no text.
    """
    content = message.get("content") if isinstance(message, dict) else None
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return " ".join(
            p["text"] for p in content if isinstance(p, dict) and isinstance(p.get("text"), str)
        )
    return ""


def _content_text(content: Any) -> str:
    """Text of a content value; a non-text part shows as ``[type]`` so the reader knows."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = []
        for part in content:
            if isinstance(part, dict) and isinstance(part.get("text"), str):
                parts.append(part["text"])
            elif isinstance(part, dict):
                parts.append(f"[{part.get('type', 'part')}]")
        return " ".join(parts)
    return ""


def render_turns(messages: Sequence[Any]) -> str:
    """The turns as plain text for a summariser: one block per message, ``[role] text``,
    then a ``  -> calls name(arguments)`` line per tool call. Non-dict items are skipped."""
    blocks = []
    for message in messages:
        if not isinstance(message, dict):
            continue
        lines = [f"[{message.get('role', '?')}] {_content_text(message.get('content'))}".rstrip()]
        for call in message.get("tool_calls") or ():
            function = call.get("function") if isinstance(call, dict) else None
            function = function if isinstance(function, dict) else {}
            arguments = function.get("arguments", "")
            if not isinstance(arguments, str):
                arguments = json.dumps(arguments, default=str)
            lines.append(f"  -> calls {function.get('name', '?')}({arguments})")
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)

"""The plain text of a message, whatever shape its content has."""

from __future__ import annotations

from typing import Any

__all__ = ["text_of"]


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

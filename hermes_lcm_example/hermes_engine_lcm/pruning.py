"""Tool results moved out of the request, kept whole in the store.

LCM's prune (Hermes Agent 0.22's ``prune_tool_results_only``) replaces an old
tool result in the host's list with a stub naming the stored message
(``M<id>``): ``lcm_expand`` returns it byte for byte. Stubs are LCM's own
text, like its summaries, so ingest never stores them as messages.
"""

from __future__ import annotations

from typing import Any

__all__ = ["STUB_PREFIX", "is_lcm_stub", "movable", "stub"]

#: Every stub starts with this.
STUB_PREFIX = "[LCM kept this tool result whole as "
#: How much of the result's first line a stub shows.
_GLIMPSE = 120


def is_lcm_stub(message: Any) -> bool:
    content = message.get("content") if isinstance(message, dict) else None
    return isinstance(content, str) and content.startswith(STUB_PREFIX)


def movable(message: Any, min_chars: int) -> bool:
    """Whether ``message`` is a tool result of ``min_chars`` characters or more."""
    if not isinstance(message, dict) or message.get("role") != "tool":
        return False
    content = message.get("content")
    return isinstance(content, str) and len(content) >= min_chars and not is_lcm_stub(message)


def stub(message: dict[str, Any], message_id: int) -> dict[str, Any]:
    """``message`` with its content replaced by a stub pointing at stored message
    ``message_id`` (its other keys, ``tool_call_id`` first of all, kept)."""
    content = str(message.get("content"))
    first = next((line.strip() for line in content.splitlines() if line.strip()), "")
    if len(first) > _GLIMPSE:
        first = first[: _GLIMPSE - 3] + "..."
    text = (
        f"{STUB_PREFIX}M{message_id} ({len(content):,} characters); "
        f'lcm_expand with id "M{message_id}" returns it] {first}'
    )
    return {**message, "content": text}

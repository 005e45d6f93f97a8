"""Tool results moved out of the request, kept whole in the store.

LCM's prune (Hermes Agent 0.22's ``prune_tool_results_only``) replaces an old
tool result in the host's list with a stub naming the stored message
(``M<id>``): ``lcm_expand`` returns it byte for byte. Stubs are LCM's own
text, like its summaries, so ingest never stores them as messages.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hermes_core import Messages, estimate_message_tokens
from hermes_engine_lcm.store.messages import OVERLAP, fingerprint, remember_handed
from hermes_engine_lcm.store.protocol import Connection
from hermes_engine_lcm.store.records import latest_by_fingerprint

__all__ = ["STUB_PREFIX", "is_lcm_stub", "movable", "stub", "stub_stored"]

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


def stub_stored(
    db: Connection,
    sid: str,
    messages: Messages,
    wanted: list[int],
    commit: Callable[[int], bool],
) -> tuple[Messages, int]:
    """``messages`` with each result at ``wanted`` that session ``sid`` has stored made a
    stub, and how many, when ``commit`` (given the tokens that frees) accepts; else
    ``messages`` and 0. An accepted list is recorded as the one the host holds."""
    out = list(messages)
    stored = latest_by_fingerprint(db, sid, len(messages) + OVERLAP)
    for i in wanted:
        message_id = stored.get(fingerprint(messages[i]))
        if message_id is not None:
            out[i] = stub(messages[i], message_id)
    moved = [i for i in wanted if out[i] is not messages[i]]
    freed = sum(
        estimate_message_tokens(messages[i]) - estimate_message_tokens(out[i]) for i in moved
    )
    if not moved or not commit(freed):
        return messages, 0
    remember_handed(db, sid, out)  # the host's list from now on: stubs, not results
    return out, len(moved)

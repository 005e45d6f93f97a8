"""Requests that only grow between rebuilds, for the provider's prompt cache.

A provider caches the longest prefix a request shares with the one before it. LCM
builds a request from the store (the originals most relevant to the ask, summaries,
the fresh tail), so two requests built a turn apart share little. Instead, once a
request is built, the next ones are that request with the conversation's new messages
appended, while they fit the budget and nothing else changed: the standing
instructions it carries, the session's compactions, the history it was built from.
A new ask of the user's brings the stored originals most relevant to it that the
request lacks (:data:`RECALLED` at most), word for word in one note of LCM's own,
:data:`RECALL_PREFIX`, just before the ask: appended too, so the prefix holds.
When something changed, or the request would not fit, one is built anew, leaving
:data:`HEADROOM` of the budget free, so the turns after it have room to grow into.
The first request of an engine is built with the whole budget.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from hermes_core import Message, estimate_tokens, render_turns

__all__ = [
    "HEADROOM", "RECALLED", "RECALL_PREFIX", "Built", "grown", "is_recall", "new_since",
    "recall_note",
]  # fmt: skip

#: The share of the budget a request built again leaves free for the turns after it.
HEADROOM = 0.25
#: The most originals one new ask brings into a grown request.
RECALLED = 4
#: How LCM's note of recalled originals begins (it names summaries: readers of stored
#: conversations know it for an engine's text).
RECALL_PREFIX = "[LCM recalled from its summaries: earlier turns, word for word]"


def is_recall(message: Any) -> bool:
    """Whether ``message`` is LCM's note of recalled originals."""
    content = message.get("content") if isinstance(message, dict) else None
    return isinstance(content, str) and content.startswith(RECALL_PREFIX)


def key(message: Any) -> tuple[str, str]:
    """What tells two messages apart in a request: role and text."""
    if not isinstance(message, dict):
        return ("", str(message))
    return (str(message.get("role")), str(message.get("content")))


@dataclass(frozen=True)
class Built:
    """The last request of a session, and what it was made from."""

    request: list[Message]
    #: How many messages of the agent's history it holds, and the last of them.
    history_length: int
    last: Any
    #: The standing instructions' block it carries (its text), and the session's
    #: compactions when it was made.
    block: str
    compactions: int


def recall_note(originals: Iterable[tuple[int, Message]]) -> Message | None:
    """One user message holding ``originals`` (store id, message), oldest first; None for
    none."""
    parts = [f"M{number}: {render_turns([message])}" for number, message in originals]
    if not parts:
        return None
    return {"role": "user", "content": RECALL_PREFIX + "\n\n" + "\n\n".join(parts)}


def new_since(
    built: Built | None, history: list[Message], block: str, compactions: int
) -> list[Message] | None:
    """The messages ``history`` gained since ``built`` was made, when its request can grow
    (the same standing instructions, no compaction since, the history it was made from);
    None when a request must be built anew."""
    if built is None or built.block != block or built.compactions != compactions:
        return None
    held = built.history_length
    if len(history) < held or (held and history[held - 1] != built.last):
        return None
    return history[held:]


def grown(
    built: Built, new: list[Message], budget: int, note: Message | None = None
) -> list[Message] | None:
    """``built``'s request with ``new`` appended (``note`` just before the last of them),
    when that fits ``budget``; None when it does not."""
    if note is not None and new:
        new = [*new[:-1], note, new[-1]]
    request = [*built.request, *new]
    return request if estimate_tokens(request) <= budget else None

"""The copies a host hands its engine, made once per message object.

Every call that hands an engine the conversation (``turn_complete``,
``select_context``, a tool call's ``messages=``) used to copy every message
again: the host's cost grew with the history, 30 ms a turn at 10,000 messages.
Agents hand the same list again each turn with new messages at its end, so a
:class:`HandedCopies` remembers, per session and kind of list, the message
objects it copied and their copies: a message object standing where it stood
last time is handed as the copy it already has, and only what is new is copied.

What still holds:

* an engine that mutates what it got changes nothing the agent holds: it only
  ever gets copies (the list itself is new on every call);
* an agent that mutates its list or a message after a call changes nothing the
  engine kept: the copies share nothing mutable with the originals.

What a copy reflects is the message as it was when the host first copied it:
the host tells messages apart by object, not by content, so an agent that
edits a message in place after handing it (Hermes Agent sets bookkeeping keys
such as ``_db_persisted``) is not re-copied for that; an agent that wants an
engine to see an edit hands a new message object. Whether the prefix of a list
is the same is checked at a few positions at C speed, and, when that fails, by
identity along the whole list.
"""

from __future__ import annotations

import operator
import threading
from collections import OrderedDict
from collections.abc import Hashable, Sequence
from typing import Any

from hermes_core.messages._copying import copy_message

__all__ = ["HandedCopies"]

#: Sessions (and kinds of list) whose copies are kept.
KEPT_LISTS = 128


class _Handed:
    """The message objects of the list handed last, and their copies, position by position."""

    __slots__ = ("copies", "originals")

    def __init__(self) -> None:
        self.originals: list[Any] = []
        self.copies: list[Any] = []


def _kept_prefix(messages: Sequence[Any], originals: list[Any], length: int) -> int | None:
    """How many of the first ``length`` messages are the objects ``originals`` holds there,
    judged at a few places: ``length``, or ``length - 1`` when only the last differs (a
    request whose incoming message is new); None when the samples disagree."""
    last = length - 1
    for index in (0, last // 4, last // 2, (3 * last) // 4, max(0, last - 1)):
        if messages[index] is not originals[index]:
            return None
    return length if messages[last] is originals[last] else last


def _longest_prefix(messages: Sequence[Any], originals: list[Any]) -> int:
    """How many leading messages are the same objects as ``originals`` (a C-speed scan)."""
    same = list(map(operator.is_, messages, originals))
    try:
        return same.index(False)
    except ValueError:
        return len(same)


class HandedCopies:
    """Copies of the lists a host hands its engine; thread-safe."""

    def __init__(self) -> None:
        self._lists: OrderedDict[Hashable, _Handed] = OrderedDict()
        self._lock = threading.Lock()
        #: Messages copied so far (a message copied once and handed many times counts once).
        self.copied = 0

    def copies(self, key: Hashable, messages: Sequence[Any]) -> list[Any]:
        """A new list of copies of ``messages``, made once per message object for ``key``
        (a session and a kind of list)."""
        with self._lock:
            handed = self._lists.get(key)
            if handed is None:
                handed = self._lists[key] = _Handed()
                while len(self._lists) > KEPT_LISTS:
                    self._lists.popitem(last=False)
            else:
                self._lists.move_to_end(key)
            kept = min(len(handed.originals), len(messages))
            if kept:
                sampled = _kept_prefix(messages, handed.originals, kept)
                kept = (
                    sampled if sampled is not None else _longest_prefix(messages, handed.originals)
                )
            if kept < len(handed.originals):
                del handed.originals[kept:]
                del handed.copies[kept:]
            fresh = [copy_message(message) for message in messages[kept:]]
            self.copied += len(fresh)
            handed.originals.extend(messages[kept:])
            handed.copies.extend(fresh)
            return list(handed.copies)

    def forget(self, session: Hashable) -> None:
        """Drop what is kept for ``session`` (every kind of list)."""
        with self._lock:
            for key in [k for k in self._lists if isinstance(k, tuple) and k[0] == session]:
                del self._lists[key]

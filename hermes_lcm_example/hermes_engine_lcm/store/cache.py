"""Decoded messages, their metadata and summaries kept in memory between requests.

Stored messages never change, so what was read for one request serves the
next: consecutive requests of a session share most of their candidates (the
recent turns, the same relevant ones). The cache is bounded (least recently
used out first) and shared by every session of an engine; callers must not
change what it returns (the engine hands out copies).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeVar

from hermes_engine_lcm.store.nodes import SummaryRow, load_messages, load_summaries
from hermes_engine_lcm.store.protocol import Connection
from hermes_engine_lcm.store.records import MessageMeta, message_meta

__all__ = ["MessageCache"]

V = TypeVar("V")


class _Bounded:
    def __init__(self, capacity: int) -> None:
        self.capacity = capacity
        self.entries: OrderedDict[int, Any] = OrderedDict()

    def get_many(
        self, ids: Sequence[int], load: Callable[[list[int]], dict[int, V]]
    ) -> dict[int, V]:
        found: dict[int, V] = {}
        missing: list[int] = []
        for key in ids:
            value = self.entries.get(key)
            if value is None:
                missing.append(key)
            else:
                self.entries.move_to_end(key)
                found[key] = value
        if missing:
            loaded = load(missing)
            found.update(loaded)
            self.put_many(loaded)
        return found

    def put_many(self, values: dict[int, Any]) -> None:
        """Keep ``values`` (the most recently used now), dropping the least recently used."""
        for key, value in values.items():
            self.entries[key] = value
            self.entries.move_to_end(key)
        while len(self.entries) > self.capacity:
            self.entries.popitem(last=False)


class MessageCache:
    """Message bodies and metadata by id, up to ``capacity`` of each."""

    def __init__(self, capacity: int = 8_192) -> None:
        self._bodies = _Bounded(capacity)
        self._meta = _Bounded(capacity)
        self._summaries = _Bounded(capacity)
        self._lock = threading.Lock()

    def bodies(self, db: Connection, ids: Sequence[int]) -> dict[int, dict[str, Any]]:
        """The decoded messages (shared: do not change them)."""
        with self._lock:
            return self._bodies.get_many(ids, lambda missing: load_messages(db, missing))

    def meta(self, db: Connection, ids: Sequence[int]) -> dict[int, MessageMeta]:
        with self._lock:
            return self._meta.get_many(ids, lambda missing: message_meta(db, missing))

    def add_meta(self, found: Iterable[MessageMeta]) -> None:
        """Metadata read some other way (by position in a session): :meth:`meta` serves it
        from here, instead of reading it again by id."""
        with self._lock:
            self._meta.put_many({m.id: m for m in found})

    def summaries(self, db: Connection, ids: Sequence[int]) -> dict[int, SummaryRow]:
        """Summaries by id (they never change either)."""
        with self._lock:
            return self._summaries.get_many(ids, lambda missing: load_summaries(db, missing))

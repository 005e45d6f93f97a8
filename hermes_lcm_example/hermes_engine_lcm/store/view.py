"""One request's read of a session: the connection, the engine's cache of stored messages
and what the store can search, held together for the code that builds a request.

Stored messages never change, so what a view reads through the cache serves the next
request too; the connection is the one :meth:`~hermes_engine_lcm.store.protocol.StoreDatabase.read`
opened for this request, and the view lives no longer than that block.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from hermes_engine_lcm.store.cache import MessageCache
from hermes_engine_lcm.store.nodes import Item, SummaryRow, active_items
from hermes_engine_lcm.store.protocol import Connection, StoreDatabase
from hermes_engine_lcm.store.records import MessageMeta, messages_at, recent_ids
from hermes_engine_lcm.store.search import search
from hermes_engine_lcm.store.search_rules import Hit

__all__ = ["ReadView", "read_view"]


@dataclass(frozen=True)
class ReadView:
    """Session ``session_id`` of a store, read through ``cache`` over ``db``."""

    db: Connection
    session_id: str
    cache: MessageCache
    #: Whether a SQLite store has its full-text indexes (PostgreSQL always has).
    fts: bool = True

    def meta(self, ids: Sequence[int]) -> dict[int, MessageMeta]:
        """The metadata of the messages ``ids`` (those that exist)."""
        return self.cache.meta(self.db, ids)

    def bodies(self, ids: Sequence[int]) -> dict[int, dict[str, Any]]:
        """The messages ``ids`` as stored (shared: do not change them)."""
        return self.cache.bodies(self.db, ids)

    def summaries(self, ids: Sequence[int]) -> dict[int, SummaryRow]:
        """The summaries ``ids`` (those that exist)."""
        return self.cache.summaries(self.db, ids)

    def at(self, seqs: Iterable[int]) -> list[MessageMeta]:
        """The session's messages at ``seqs`` (those that exist), read past the cache."""
        return messages_at(self.db, self.session_id, list(seqs))

    def active(self) -> list[Item]:
        """The session's active context, in order."""
        return active_items(self.db, self.session_id)

    def recent(self, before_seq: int, limit: int) -> list[int]:
        """Ids of the session's latest ``limit`` messages before ``before_seq``, latest
        first."""
        return recent_ids(self.db, self.session_id, before_seq, limit)

    def search(self, text: str, limit: int) -> list[Hit]:
        """Up to ``limit`` of the session's messages holding ``text``'s words, every word
        first (:func:`~hermes_engine_lcm.store.search.search`)."""
        return search(self.db, "message", text, [self.session_id], limit, False, self.fts)


@contextmanager
def read_view(database: StoreDatabase, session_id: str, cache: MessageCache) -> Iterator[ReadView]:
    """A view of ``session_id`` over a read connection of ``database``, for one request."""
    with database.read() as db:
        yield ReadView(db, session_id, cache, database.fts)

"""What the shared modules of the store need of a backend: the one protocol both
backends (``store.sqlite``, ``store.postgres``) implement, and nothing else.

The store's shared modules (``records``, ``messages``, ``nodes``, ``embeddings``,
``search``...) take a :class:`Connection` and speak the SQL subset both
backends run: ``?`` placeholders, ``SELECT``/``INSERT``/``UPDATE``/``DELETE``
over the store's tables, ``COALESCE``, ``IN (...)``, ``ORDER BY ... LIMIT ?``,
recursive ``WITH`` queries, no backend functions. What the backends do their
own way is a method of the connection: handing out new row ids
(:meth:`Connection.new_ids`), inserting many rows at once
(:meth:`Connection.insert_rows`), indexing new messages
(:meth:`Connection.index_messages`) and searching
(:meth:`Connection.searcher`, a :class:`SearchDialect`). The connection
carries its backend: nothing above it compares backend names.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from contextlib import AbstractContextManager
from typing import Any, Protocol

from hermes_engine_lcm.store.search_rules import Hit

__all__ = ["Connection", "Hits", "Row", "Rows", "SearchDialect", "StoreDatabase"]

#: A row a search round answers: id, session id, text, position (seq, or a summary's
#: last seq).
Row = Sequence[Any]


class Rows(Protocol):
    """A cursor over a query's rows (tuples)."""

    def fetchone(self) -> Any: ...

    def fetchall(self) -> list[Any]: ...

    def __iter__(self) -> Iterator[Any]: ...


class Hits:
    """The hits a search has gathered, in the order found, up to ``limit``."""

    def __init__(self, kind: str, limit: int) -> None:
        self.kind = kind
        self.limit = limit
        self._found: dict[int, Hit] = {}

    @property
    def room(self) -> int:
        """How many more hits the search takes."""
        return self.limit - len(self._found)

    def __contains__(self, ident: object) -> bool:
        return ident in self._found

    def add(self, rows: Iterable[Row]) -> None:
        """Keep each row not already held, while there is room."""
        for ident, session_id, text, position in rows:
            if self.room <= 0:
                return
            if ident not in self._found:
                self._found[ident] = Hit(self.kind, ident, session_id, text, position)

    def found(self) -> list[Hit]:
        return list(self._found.values())


class SearchDialect(Protocol):
    """One backend's answer to each round of a search (scoped to some sessions)."""

    def word_query(self, words: Sequence[str], every: bool) -> str:
        """The backend's match expression for ``words``: all of them, or any."""

    def word_round(self, kind: str, match: str, hits: Hits, recency: bool) -> Iterable[Row]:
        """Rows of ``kind`` matching ``match``, best first (latest first with ``recency``)."""

    def substring_round(
        self, kind: str, text: str, words: Sequence[str], hits: Hits, recency: bool
    ) -> Iterable[Row]:
        """Rows holding ``text`` as a substring, where words cannot find it (else none)."""

    def ranked(self, words: Sequence[str], limit: int) -> list[int]:
        """Ids of the messages that best match any of ``words``, best first."""


class Connection(Protocol):
    """A connection inside one of the store's transactions."""

    def execute(self, sql: str, parameters: Sequence[Any] = ..., /) -> Rows: ...

    def executemany(self, sql: str, parameters: Iterable[Sequence[Any]], /) -> Any: ...

    def new_ids(self, table: str, count: int) -> list[int]:
        """``count`` ids no row of ``table`` has nor will be given to another writer."""
        ...

    def index_messages(self, ids: Sequence[int], cjk: bool) -> None:
        """Add just-inserted messages to the full-text indexes (``cjk``: some hold CJK text)."""
        ...

    def insert_rows(
        self, table: str, columns: Sequence[str], rows: Sequence[Sequence[Any]]
    ) -> None:
        """Insert ``rows`` (values in ``columns``' order) into ``table``, in as few
        statements as the backend allows."""
        ...

    def searcher(self, session_ids: Sequence[str] | None, fts: bool) -> SearchDialect:
        """The backend's search within ``session_ids`` (None: every session); ``fts``
        says whether the store has its full-text indexes (a backend may always have)."""
        ...


class StoreDatabase(Protocol):
    """A store's database, whichever the backend: transactions, and what ``status()`` shows."""

    #: The backend's name, for people: the status and the logs.
    backend: str
    #: Where the store is, with no secret in it (a file path, or a URL without password).
    location: str
    #: Whether full-text indexes exist (on SQLite they need FTS5).
    fts: bool

    def read(self) -> AbstractContextManager[Connection]:
        """A read transaction: one consistent snapshot."""
        ...

    def write(self, session_id: str | None = None) -> AbstractContextManager[Connection]:
        """A write transaction; two writers of one session never overlap."""
        ...

    def checkpoint(self) -> None: ...

    def close(self) -> None: ...

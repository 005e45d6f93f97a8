"""What the store's queries need of a database connection, whichever the backend.

The store's functions take a :class:`Connection`: ``execute`` with ``?``
placeholders, ``executemany``, and the three things the backends do their
own way: handing out new row ids, inserting many rows at once, and adding
new messages to the full-text indexes. SQLite's connection class
(:class:`SQLiteConnection`) has them; PostgreSQL's
(``store.postgres.connection``) translates the placeholders.
Full-text search itself differs too much to share: ``store.search`` picks
the backend's by :attr:`Connection.dialect`.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from contextlib import AbstractContextManager
from typing import Any, Literal, Protocol

__all__ = ["Connection", "Rows", "SQLiteConnection", "StoreDatabase"]

Dialect = Literal["sqlite", "postgresql"]


class Rows(Protocol):
    """A cursor over a query's rows (tuples)."""

    def fetchone(self) -> Any: ...

    def fetchall(self) -> list[Any]: ...

    def __iter__(self) -> Iterator[Any]: ...


class Connection(Protocol):
    """A connection inside one of the store's transactions."""

    @property
    def dialect(self) -> Dialect: ...

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


class StoreDatabase(Protocol):
    """A store's database, whichever the backend: transactions, and what ``status()`` shows."""

    #: "sqlite" or "postgresql".
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


class SQLiteConnection(sqlite3.Connection):
    """sqlite3's connection with the store's two backend-specific steps.

    SQLite writes one transaction at a time (``BEGIN IMMEDIATE``), so the
    next ids are the largest plus one, consecutive; the full-text indexes
    are FTS5 tables filled by one ``INSERT ... SELECT`` per batch.
    """

    @property
    def dialect(self) -> Dialect:
        return "sqlite"

    def new_ids(self, table: str, count: int) -> list[int]:
        first = int(self.execute(f"SELECT COALESCE(MAX(id), 0) + 1 FROM {table}").fetchone()[0])
        return list(range(first, first + count))

    def insert_rows(
        self, table: str, columns: Sequence[str], rows: Sequence[Sequence[Any]]
    ) -> None:
        marks = ", ".join("?" * len(columns))
        self.executemany(f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks})", rows)

    def index_messages(self, ids: Sequence[int], cjk: bool) -> None:
        first, last = min(ids), max(ids)
        self.execute(
            "INSERT INTO messages_stem (rowid, text)"
            " SELECT id, text FROM messages WHERE id BETWEEN ? AND ?",
            (first, last),
        )
        if cjk:
            self.execute(
                "INSERT INTO messages_tri (rowid, text)"
                " SELECT id, text FROM messages WHERE id BETWEEN ? AND ? AND cjk",
                (first, last),
            )

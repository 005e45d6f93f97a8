"""sqlite3's connection, speaking the store's
:class:`~hermes_engine_lcm.store.protocol.Connection`."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from typing import Any

from hermes_engine_lcm.store.sqlite.search import Fts5Search

__all__ = ["SQLiteConnection"]


class SQLiteConnection(sqlite3.Connection):
    """sqlite3's connection with the store's backend-specific steps.

    SQLite writes one transaction at a time (``BEGIN IMMEDIATE``), so the
    next ids are the largest plus one, consecutive; the full-text indexes
    are FTS5 tables filled by one ``INSERT ... SELECT`` per batch, and
    searched by :class:`~hermes_engine_lcm.store.sqlite.search.Fts5Search`.
    """

    def searcher(self, session_ids: Sequence[str] | None, fts: bool) -> Fts5Search:
        return Fts5Search(self, session_ids, fts)

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

"""A psycopg connection that speaks the store's ``Connection`` protocol."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import psycopg

from hermes_engine_lcm.store.postgres.search import PostgresSearch
from hermes_engine_lcm.store.protocol import Rows

__all__ = ["COLUMN_TYPES", "PostgresConnection"]

#: The SQL type of each column rows are inserted into in bulk (see ``insert_rows``).
COLUMN_TYPES: dict[str, dict[str, str]] = {
    "messages": {
        "id": "bigint",
        "session_id": "text",
        "seq": "bigint",
        "role": "text",
        "text": "text",
        "body": "text",
        "fp": "text",
        "tokens": "integer",
        "created_at": "double precision",
        "cjk": "integer",
    },
    "context_items": {
        "session_id": "text",
        "position": "bigint",
        "kind": "text",
        "ref_id": "bigint",
        "tokens": "integer",
    },
    "summary_children": {
        "summary_id": "bigint",
        "ord": "integer",
        "kind": "text",
        "child_id": "bigint",
    },
}

_translated: dict[str, str] = {}


def _sql(query: str) -> str:
    """``?`` placeholders as psycopg's ``%s`` (a literal ``%`` doubled); the store's SQL
    holds no ``?`` inside a string literal."""
    found = _translated.get(query)
    if found is None:
        found = query.replace("%", "%%").replace("?", "%s")
        if len(_translated) < 4_096:
            _translated[query] = found
    return found


class PostgresConnection:
    """One pooled connection, inside a transaction the database opened."""

    def __init__(self, connection: psycopg.Connection[Any]) -> None:
        self.raw = connection

    def searcher(self, session_ids: Sequence[str] | None, fts: bool) -> PostgresSearch:
        """PostgreSQL's search (its full-text columns always exist: ``fts`` is moot)."""
        return PostgresSearch(self, session_ids)

    def execute(self, sql: str, parameters: Sequence[Any] = (), /) -> Rows:
        return self.raw.execute(_sql(sql), parameters)

    def executemany(self, sql: str, parameters: Iterable[Sequence[Any]], /) -> Any:
        with self.raw.cursor() as cursor:
            cursor.executemany(_sql(sql), parameters)

    def new_ids(self, table: str, count: int) -> list[int]:
        rows = self.raw.execute(
            f"SELECT nextval('{table}_id_seq') FROM generate_series(1, %s)",
            (count,),
        )
        return [int(row[0]) for row in rows]

    def insert_rows(
        self, table: str, columns: Sequence[str], rows: Sequence[Sequence[Any]]
    ) -> None:
        """One statement whatever the number of rows: each column goes as one array, and
        ``unnest`` turns the arrays back into rows."""
        if not rows:
            return
        types = COLUMN_TYPES[table]
        arrays = ", ".join(f"%s::{types[name]}[]" for name in columns)
        self.raw.execute(
            f"INSERT INTO {table} ({', '.join(columns)}) SELECT * FROM unnest({arrays})",
            [list(values) for values in zip(*rows, strict=True)],
        )

    def index_messages(self, ids: Sequence[int], cjk: bool) -> None:
        """Nothing to do: the ``words`` column and the GIN indexes follow every insert."""

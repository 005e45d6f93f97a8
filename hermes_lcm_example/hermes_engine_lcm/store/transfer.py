"""Moving a SQLite store to a PostgreSQL server, whole and in one transaction.

Every table is copied with its ids (``COPY``, in batches), the sequences are
moved past the largest id, and the counts are compared before the commit:
the server holds all of the store or none of it. The target must be empty
(a store already in use there is never merged into); the source file is
only read.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

from hermes_engine_lcm.errors import TransferError
from hermes_engine_lcm.store.postgres.database import LOCK_MIGRATIONS, PostgresDatabase
from hermes_engine_lcm.store.sqlite.database import Database

__all__ = ["TABLES", "TransferError", "TransferReport", "transfer"]

#: The tables in an order that satisfies every foreign key, with the columns copied.
TABLES: tuple[tuple[str, tuple[str, ...]], ...] = (
    (
        "sessions",
        (
            "id",
            "created_at",
            "next_seq",
            "next_position",
            "handed_count",
            "handed_head_fp",
            "handed_mid_fp",
            "handed_tail_fp",
            "handed_seq",
        ),
    ),
    (
        "messages",
        ("id", "session_id", "seq", "role", "text", "body", "fp", "tokens", "created_at", "cjk"),
    ),
    (
        "summaries",
        (
            "id",
            "session_id",
            "depth",
            "level",
            "text",
            "tokens",
            "first_seq",
            "last_seq",
            "first_at",
            "last_at",
            "created_at",
            "cjk",
        ),
    ),
    ("summary_children", ("summary_id", "ord", "kind", "child_id")),
    ("context_items", ("session_id", "position", "kind", "ref_id", "tokens")),
)
BATCH = 5_000


def _storable(value: object) -> object:
    """A value as PostgreSQL's text takes it: NUL (which SQLite stores) becomes U+FFFD."""
    if isinstance(value, str) and "\x00" in value:
        return value.replace("\x00", "\ufffd")
    return value


@dataclass(frozen=True)
class TransferReport:
    rows: dict[str, int]
    seconds: float


def transfer(
    source: Path,
    target: PostgresDatabase,
) -> TransferReport:
    """Copy the SQLite store at ``source`` into ``target`` (empty; migrated by opening it)."""
    if not source.is_file():
        raise TransferError(f"no SQLite store at {source}: name it with --from")
    started = time.monotonic()
    database = Database(source)  # brings an older file to the current schema first
    copied: dict[str, int] = {}
    try:
        with database.read() as sqlite, target.bulk_write() as db:
            db.raw.execute("SELECT pg_advisory_xact_lock(%s, 1)", (LOCK_MIGRATIONS,))
            for table, _ in TABLES:
                row = db.raw.execute(f"SELECT EXISTS (SELECT 1 FROM {table})").fetchone()
                if row and row[0]:
                    raise TransferError(
                        f"{target.location} already holds a store ({table} has rows); "
                        "move into an empty database"
                    )
            for table, columns in TABLES:
                names = ", ".join(columns)
                rows = sqlite.execute(f"SELECT {names} FROM {table}")
                count = 0
                statement = f"COPY {table} ({names}) FROM STDIN"
                with db.raw.cursor() as cursor, cursor.copy(statement) as copy:
                    while batch := rows.fetchmany(BATCH):
                        for values in batch:
                            copy.write_row([_storable(v) for v in values])
                        count += len(batch)
                copied[table] = count
            for sequence in ("messages", "summaries"):
                db.raw.execute(
                    f"SELECT setval('{sequence}_id_seq',"
                    f" GREATEST((SELECT MAX(id) FROM {sequence}), 1))"
                )
            for table, _ in TABLES:
                there = db.raw.execute(f"SELECT COUNT(*) FROM {table}").fetchone()
                if there is None or int(there[0]) != copied[table]:
                    raise TransferError(f"{table}: copied {copied[table]} rows, found {there}")
    finally:
        database.close()
    with target.write() as db:  # statistics on the copied rows, for the planner
        db.execute("ANALYZE")
    return TransferReport(copied, time.monotonic() - started)

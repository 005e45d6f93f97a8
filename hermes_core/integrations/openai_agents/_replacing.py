"""Replacing a session's stored items with a compacted history: all or nothing.

A compaction replaces every stored item. Done as two calls (``clear_session()``, then
``add_items(...)``), a run cancelled between them leaves the session empty. So:

- an Agents SDK ``SQLiteSession`` on a file (the default store) is replaced in one
  SQLite transaction, on a connection of our own to its tables: a cancelled run, a
  crash or a killed process leaves the old items or the new ones, never a mix;
- any other ``Session`` is replaced by its own two calls, shielded from the run's
  cancellation so that both run once the first has: a cancelled run still ends with the
  new items. Only a process that dies between them can leave it empty; a store that
  offers ``replace_items(items)`` (one step of its own) is used instead.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
from typing import Any

from agents import SQLiteSession
from agents.memory import Session

__all__ = ["replace_items", "start_replacing"]

#: How long the transaction waits for another writer of the file, in milliseconds.
BUSY_TIMEOUT_MS = 30_000


async def replace_items(session: Session, items: list[Any]) -> None:
    """Make ``items`` the stored items of ``session``, all or nothing; a cancellation of the
    caller after this starts never leaves the session without its history."""
    await asyncio.shield(start_replacing(session, items))


def start_replacing(session: Session, items: list[Any]) -> asyncio.Future[None]:
    """The replacement of ``session``'s items by ``items``, started as a task of its own
    (a caller's cancellation does not reach it; await it to know it is done)."""
    own: Any = getattr(session, "replace_items", None)
    if callable(own):
        started: asyncio.Future[None] = asyncio.ensure_future(own(items))
        return started
    if isinstance(session, SQLiteSession) and str(session.db_path) != ":memory:":
        return asyncio.ensure_future(asyncio.to_thread(_replace_in_one_transaction, session, items))
    return asyncio.ensure_future(_clear_then_add(session, items))


async def _clear_then_add(session: Session, items: list[Any]) -> None:
    await session.clear_session()
    await session.add_items(items)


def _replace_in_one_transaction(session: SQLiteSession, items: list[Any]) -> None:
    """The SQLiteSession's rows of this session, deleted and written again in one
    transaction (its tables, as its own ``add_items`` writes them)."""
    rows = [(session.session_id, json.dumps(item)) for item in items]
    connection = sqlite3.connect(str(session.db_path), isolation_level=None)
    try:
        connection.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        connection.execute("BEGIN IMMEDIATE")
        try:
            connection.execute(
                f"DELETE FROM {session.messages_table} WHERE session_id = ?",
                (session.session_id,),
            )
            connection.execute(
                f"INSERT OR IGNORE INTO {session.sessions_table} (session_id) VALUES (?)",
                (session.session_id,),
            )
            connection.executemany(
                f"INSERT INTO {session.messages_table} (session_id, message_data) VALUES (?, ?)",
                rows,
            )
            connection.execute(
                f"UPDATE {session.sessions_table} SET updated_at = CURRENT_TIMESTAMP "
                "WHERE session_id = ?",
                (session.session_id,),
            )
        except BaseException:
            connection.execute("ROLLBACK")
            raise
        connection.execute("COMMIT")
    finally:
        connection.close()

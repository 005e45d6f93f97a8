"""Raw SQL against an engine's store, whichever the backend (``?`` placeholders)."""

from __future__ import annotations

import json
from typing import Any, Protocol

from hermes_engine_lcm import LCMEngine
from hermes_engine_lcm.store.nodes import Item, active_items


class Rows(list[tuple[Any, ...]]):
    def fetchone(self) -> tuple[Any, ...]:
        return self[0]

    def fetchall(self) -> list[tuple[Any, ...]]:
        return list(self)


class Statements:
    """``execute`` runs each statement in a transaction of its own and returns its rows."""

    def __init__(self, engine: LCMEngine) -> None:
        self.database = engine.database

    def execute(self, query: str, parameters: Any = ()) -> Rows:
        if query.lstrip().upper().startswith(("SELECT", "PRAGMA", "WITH")):
            with self.database.read() as db:
                return Rows(tuple(row) for row in db.execute(query, tuple(parameters)))
        with self.database.write() as db:
            db.execute(query, tuple(parameters))
        return Rows()


def sql(engine: LCMEngine) -> Statements:
    return Statements(engine)


def _current(engine: LCMEngine) -> str:
    """The store's key of the engine's current session (its status says)."""
    return str(engine.get_status()["session_id"])


def active(engine: LCMEngine, session_id: str | None = None) -> list[Item]:
    """The session's active context as stored (default: the engine's current session)."""
    key = _current(engine) if session_id is None else session_id
    with engine.database.read() as db:
        return active_items(db, key)


def stored(engine: LCMEngine, session: str | None = None) -> list[dict[str, Any]]:
    """The session's stored messages, decoded, in order (default: the engine's current one)."""
    key = _current(engine) if session is None else session
    rows = sql(engine).execute(
        "SELECT body FROM messages WHERE session_id = ? ORDER BY seq", (key,)
    )
    return [json.loads(row[0]) for row in rows]


class Executes(Protocol):
    def execute(self, query: str, parameters: Any = ..., /) -> Any: ...


def check_consistent(db: Executes, expected_messages: int) -> None:
    """The store's DAG is whole: every message stored and reachable, no summary without what
    it covers, nothing both summarised and still raw, no orphaned summary."""
    assert db.execute("SELECT COUNT(*) FROM messages").fetchone()[0] == expected_messages
    summaries = {r[0] for r in db.execute("SELECT id FROM summaries")}
    with_children = {r[0] for r in db.execute("SELECT DISTINCT summary_id FROM summary_children")}
    assert summaries == with_children
    in_context = {tuple(r) for r in db.execute("SELECT kind, ref_id FROM context_items")}
    folded = {tuple(r) for r in db.execute("SELECT kind, child_id FROM summary_children")}
    assert not in_context & folded
    assert {("summary", s) for s in summaries} - folded <= in_context
    messages = {("message", r[0]) for r in db.execute("SELECT id FROM messages")}
    assert messages <= in_context | folded

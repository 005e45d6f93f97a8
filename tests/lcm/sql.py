"""Raw SQL against an engine's store, whichever the backend (``?`` placeholders)."""

from __future__ import annotations

from typing import Any

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
        with self.database.write() as db:
            cursor = db.execute(query, tuple(parameters))
            if getattr(cursor, "description", None) is None:
                return Rows()
            return Rows(tuple(row) for row in cursor)


def sql(engine: LCMEngine) -> Statements:
    return Statements(engine)


def active(engine: LCMEngine, session_id: str = "default") -> list[Item]:
    """The session's active context as stored."""
    with engine.database.read() as db:
        return active_items(db, session_id)

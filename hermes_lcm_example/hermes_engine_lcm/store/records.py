"""Reads of stored messages and sessions as named records, for compaction, selection and tools.

With :mod:`~hermes_engine_lcm.store.nodes` (the summary DAG) and
:mod:`~hermes_engine_lcm.store.messages` (ingest), this is where LCM speaks
SQL; the modules above the store speak in these records.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from hermes_engine_lcm.store.protocol import Connection
from hermes_engine_lcm.store.search_rules import Hit

__all__ = [
    "MessageMeta",
    "SessionTotals",
    "clear_active_context",
    "message_meta",
    "message_sizes",
    "messages_at",
    "open_session",
    "owner_of",
    "session_counts",
    "session_totals",
]

#: Ids per ``IN (...)`` list, below SQLite's default limit of host parameters.
_CHUNK = 500


class MessageMeta(NamedTuple):
    """What compaction and the tools need of a stored message besides its body (a tuple:
    selection reads thousands of them per request)."""

    id: int
    role: str
    seq: int
    tokens: int
    created_at: float


@dataclass(frozen=True)
class SessionTotals:
    """A session's stored history: messages, their tokens, summaries per depth."""

    stored_messages: int
    stored_tokens: int
    summaries_by_depth: dict[int, int]


def _chunks(ids: Sequence[int]) -> Iterator[list[int]]:
    for start in range(0, len(ids), _CHUNK):
        yield list(ids[start : start + _CHUNK])


def message_meta(db: Connection, ids: Sequence[int]) -> dict[int, MessageMeta]:
    """The metadata of stored messages by id (ids not stored are absent)."""
    found: dict[int, MessageMeta] = {}
    for chunk in _chunks(ids):
        marks = ",".join("?" * len(chunk))
        for row in db.execute(
            f"SELECT id, role, seq, tokens, created_at FROM messages WHERE id IN ({marks})", chunk
        ):
            found[row[0]] = MessageMeta(*row)
    return found


def message_hits(db: Connection, ids: Sequence[int]) -> list[Hit]:
    """Stored messages as search hits (their searchable text), for results found otherwise
    than by words."""
    found: list[Hit] = []
    for chunk in _chunks(ids):
        marks = ",".join("?" * len(chunk))
        found += [
            Hit("message", int(i), str(session), str(text), int(seq))
            for i, session, text, seq in db.execute(
                f"SELECT id, session_id, text, seq FROM messages WHERE id IN ({marks})", chunk
            )
        ]
    return found


def message_sizes(db: Connection, ids: Sequence[int]) -> dict[int, int]:
    """The length in characters of each stored message's JSON body (what a tool sends)."""
    found: dict[int, int] = {}
    for chunk in _chunks(ids):
        marks = ",".join("?" * len(chunk))
        for message_id, size in db.execute(
            f"SELECT id, length(body) FROM messages WHERE id IN ({marks})", chunk
        ):
            found[message_id] = int(size)
    return found


def messages_at(db: Connection, session_id: str, seqs: Sequence[int]) -> list[MessageMeta]:
    """The session's messages at the given seqs (those that exist)."""
    found: list[MessageMeta] = []
    for chunk in _chunks(sorted(set(seqs))):
        marks = ",".join("?" * len(chunk))
        found += [
            MessageMeta(*row)
            for row in db.execute(
                "SELECT id, role, seq, tokens, created_at FROM messages"
                f" WHERE session_id = ? AND seq IN ({marks})",
                [session_id, *chunk],
            )
        ]
    return found


def recent_ids(db: Connection, session_id: str, before_seq: int, limit: int) -> list[int]:
    """Ids of the session's latest ``limit`` messages before ``before_seq``, latest first."""
    rows = db.execute(
        "SELECT id FROM messages WHERE session_id = ? AND seq < ? ORDER BY seq DESC LIMIT ?",
        (session_id, before_seq, limit),
    )
    return [row[0] for row in rows]


def owner_of(db: Connection, kind: str, number: int) -> str | None:
    """The session a message (``kind`` "message") or summary belongs to; None if absent."""
    table = "messages" if kind == "message" else "summaries"
    row = db.execute(f"SELECT session_id FROM {table} WHERE id = ?", (number,)).fetchone()
    return None if row is None else str(row[0])


def open_session(db: Connection, session_id: str) -> None:
    """Record the session if it is new; a known one keeps its state."""
    db.execute(
        "INSERT INTO sessions (id, created_at) VALUES (?, ?) ON CONFLICT DO NOTHING",
        (session_id, time.time()),
    )


def clear_active_context(db: Connection, session_id: str) -> None:
    """Empty the session's active context; its messages and summaries stay stored."""
    db.execute("DELETE FROM context_items WHERE session_id = ?", (session_id,))


def session_counts(db: Connection, session_id: str) -> tuple[int, int]:
    """``(stored messages, summaries)`` of the session."""
    messages = db.execute("SELECT COUNT(*) FROM messages WHERE session_id = ?", (session_id,))
    summaries = db.execute("SELECT COUNT(*) FROM summaries WHERE session_id = ?", (session_id,))
    return int(messages.fetchone()[0]), int(summaries.fetchone()[0])


def session_totals(db: Connection, session_id: str) -> SessionTotals:
    """The session's stored messages, their tokens, and its summaries per depth."""
    count, tokens = db.execute(
        "SELECT COUNT(*), COALESCE(SUM(tokens), 0) FROM messages WHERE session_id = ?",
        (session_id,),
    ).fetchone()
    depths = db.execute(
        "SELECT depth, COUNT(*) FROM summaries WHERE session_id = ? GROUP BY depth", (session_id,)
    )
    return SessionTotals(int(count), int(tokens), {int(d): int(n) for d, n in depths})


def latest_by_fingerprint(db: Connection, session_id: str, count: int) -> dict[str, int]:
    """The ids of the session's latest ``count`` stored messages by fingerprint (of equal
    ones, the latest)."""
    found: dict[str, int] = {}
    rows = db.execute(
        "SELECT fp, id FROM messages WHERE session_id = ? ORDER BY seq DESC LIMIT ?",
        (session_id, count),
    )
    for fp, message_id in rows:
        found.setdefault(fp, int(message_id))
    return found

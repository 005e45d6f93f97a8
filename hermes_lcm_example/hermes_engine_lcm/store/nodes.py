"""The summary DAG and each session's active context."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from hermes_engine_lcm.store.messages import storable_text
from hermes_engine_lcm.store.protocol import Connection

__all__ = [
    "Item",
    "SummaryRow",
    "active_items",
    "covered_messages",
    "covering_summaries",
    "covering_summary",
    "load_messages",
    "load_summaries",
    "load_summary",
    "next_summary_id",
    "parse_id",
    "replace_with_summary",
    "still_active",
    "summary_children",
]


@dataclass(frozen=True)
class Item:
    """One entry of the active context: a raw message or a summary."""

    position: int
    kind: str
    ref_id: int
    tokens: int

    @property
    def node_id(self) -> str:
        return ("M" if self.kind == "message" else "S") + str(self.ref_id)


@dataclass(frozen=True)
class SummaryRow:
    id: int
    session_id: str
    depth: int
    level: str
    text: str
    tokens: int
    first_seq: int
    last_seq: int
    first_at: float
    last_at: float


#: A node id: a kind letter and at most 18 ASCII digits (every row id fits a signed 64-bit int).
_NODE_ID = re.compile(r"([MmSs])([0-9]{1,18})")


def parse_id(node_id: object) -> tuple[str, int] | None:
    """``"M12"`` -> ("message", 12); ``"S3"`` -> ("summary", 3); anything else -> None
    (other digits than ASCII's, and numbers no row id can have, included)."""
    if not isinstance(node_id, str):
        return None
    match = _NODE_ID.fullmatch(node_id)
    if match is None:
        return None
    return {"M": "message", "S": "summary"}[match[1].upper()], int(match[2])


def active_items(db: Connection, session_id: str) -> list[Item]:
    """The session's active context, in order."""
    return [
        Item(*row)
        for row in db.execute(
            "SELECT position, kind, ref_id, tokens FROM context_items"
            " WHERE session_id = ? ORDER BY position",
            (session_id,),
        )
    ]


def load_messages(db: Connection, ids: Sequence[int]) -> dict[int, dict[str, Any]]:
    """The stored messages by id (verbatim, as ingested)."""
    found: dict[int, dict[str, Any]] = {}
    for start in range(0, len(ids), 500):
        chunk = list(ids[start : start + 500])
        marks = ",".join("?" * len(chunk))
        for message_id, body in db.execute(
            f"SELECT id, body FROM messages WHERE id IN ({marks})", chunk
        ):
            found[message_id] = json.loads(body)
    return found


def still_active(db: Connection, session_id: str, items: Sequence[Item]) -> bool:
    """Whether every one of ``items`` is still in the session's active context, unchanged."""
    marks = ",".join("?" * len(items))
    current = {
        (row[0], row[1], row[2])
        for row in db.execute(
            f"SELECT position, kind, ref_id FROM context_items"
            f" WHERE session_id = ? AND position IN ({marks})",
            [session_id, *[i.position for i in items]],
        )
    }
    return current == {(i.position, i.kind, i.ref_id) for i in items}


def next_summary_id(db: Connection) -> int:
    """The id the next summary will get (inside the write transaction that inserts it)."""
    return db.new_ids("summaries", 1)[0]


def load_summaries(db: Connection, ids: Sequence[int]) -> dict[int, SummaryRow]:
    """The summaries by id (those that exist)."""
    found: dict[int, SummaryRow] = {}
    for start in range(0, len(ids), 500):
        chunk = list(ids[start : start + 500])
        marks = ",".join("?" * len(chunk))
        for row in db.execute(
            "SELECT id, session_id, depth, level, text, tokens, first_seq, last_seq, first_at,"
            f" last_at FROM summaries WHERE id IN ({marks})",
            chunk,
        ):
            found[row[0]] = SummaryRow(*row)
    return found


def load_summary(db: Connection, summary_id: int) -> SummaryRow | None:
    """One summary by id, or None."""
    return load_summaries(db, [summary_id]).get(summary_id)


def summary_children(db: Connection, summary_id: int) -> list[tuple[str, int]]:
    return list(
        db.execute(
            "SELECT kind, child_id FROM summary_children WHERE summary_id = ? ORDER BY ord",
            (summary_id,),
        )
    )


def covered_messages(db: Connection, summary_id: int) -> list[int]:
    """Every message id under a summary, in conversation order."""
    rows = db.execute(
        """
        WITH RECURSIVE under(kind, id) AS (
            SELECT kind, child_id FROM summary_children WHERE summary_id = ?
            UNION ALL
            SELECT c.kind, c.child_id FROM summary_children c
            JOIN under u ON u.kind = 'summary' AND c.summary_id = u.id
        )
        SELECT m.id FROM under u JOIN messages m ON u.kind = 'message' AND m.id = u.id
        ORDER BY m.seq
        """,
        (summary_id,),
    )
    return [r[0] for r in rows]


def covering_summary(db: Connection, kind: str, node_id: int) -> int | None:
    """The summary directly above a node, if it was folded into one."""
    return covering_summaries(db, kind, [node_id]).get(node_id)


def covering_summaries(db: Connection, kind: str, node_ids: Sequence[int]) -> dict[int, int]:
    """The summary directly above each of the nodes of ``kind`` folded into one, in one query."""
    if not node_ids:
        return {}
    marks = ",".join("?" * len(node_ids))
    rows = db.execute(
        "SELECT child_id, summary_id FROM summary_children"
        f" WHERE kind = ? AND child_id IN ({marks})",
        [kind, *node_ids],
    )
    return {int(child): int(summary) for child, summary in rows}


def replace_with_summary(
    db: Connection,
    session_id: str,
    items: Sequence[Item],
    *,
    depth: int,
    level: str,
    text: str,
    tokens: int,
    first_seq: int,
    last_seq: int,
    first_at: float,
    last_at: float,
    summary_id: int,
) -> None:
    """Write a summary over ``items`` and put it in their place, in the caller's transaction.

    ``items`` are a run of the active context (no other item between them) and must still
    be in it exactly as given; the caller checks that before calling. Text SQLite cannot
    hold as UTF-8 (a lone surrogate from an LLM's JSON) is stored with U+FFFD in its place.
    """
    text = storable_text(text)
    db.execute(
        "INSERT INTO summaries (id, session_id, depth, level, text, tokens, first_seq, last_seq,"
        " first_at, last_at, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            summary_id,
            session_id,
            depth,
            level,
            text,
            tokens,
            first_seq,
            last_seq,
            first_at,
            last_at,
            time.time(),
        ),
    )
    db.insert_rows(
        "summary_children",
        ("summary_id", "ord", "kind", "child_id"),
        [(summary_id, ord_, item.kind, item.ref_id) for ord_, item in enumerate(items)],
    )
    positions = [item.position for item in items]
    db.execute(
        "DELETE FROM context_items WHERE session_id = ? AND position BETWEEN ? AND ?",
        (session_id, min(positions), max(positions)),
    )
    db.execute(
        "INSERT INTO context_items (session_id, position, kind, ref_id, tokens)"
        " VALUES (?, ?, 'summary', ?, ?)",
        (session_id, items[0].position, summary_id, tokens),
    )

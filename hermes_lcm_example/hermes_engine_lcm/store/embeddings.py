"""Embeddings, stored with the messages they belong to: one row per message and model.

The table is created beside the others, under the store's migration lock (each
backend's ``EMBEDDINGS_TABLE``, in its schema module), whether or not embeddings are on, so
that turning them on needs nothing but the setting. A row's vector is float32
bytes (what it holds is the reader's business: the relevance layer stores a
message's own vector and its vector in context, side by side); a message
embedded under another label is embedded again.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from hermes_engine_lcm.store.protocol import Connection

__all__ = [
    "store_vectors",
    "unembedded",
    "vector_count",
    "vectors_after",
]


def unembedded(
    db: Connection, model: str, after: int, limit: int
) -> list[tuple[int, str, str, str]]:
    """Up to ``limit`` stored messages with id > ``after`` and no vector of ``model``, by
    id: (id, session id, searchable text, the searchable text of the message before it in
    its session or ""). A caller walks the store once by moving ``after`` on, however many
    messages it holds."""
    rows = db.execute(
        "SELECT m.id, m.session_id, m.text, p.text FROM messages m"
        " LEFT JOIN embeddings e ON e.message_id = m.id AND e.model = ?"
        " LEFT JOIN messages p ON p.session_id = m.session_id AND p.seq = m.seq - 1"
        " WHERE m.id > ? AND e.message_id IS NULL ORDER BY m.id LIMIT ?",
        (model, after, limit),
    )
    return [(int(i), str(s), str(t), str(p or "")) for i, s, t, p in rows]


def store_vectors(db: Connection, model: str, rows: Iterable[tuple[int, str, bytes]]) -> None:
    """Store (message id, session id, vector bytes) rows, replacing another model's."""
    db.executemany(
        "INSERT INTO embeddings (message_id, session_id, model, vector) VALUES (?, ?, ?, ?)"
        " ON CONFLICT (message_id) DO UPDATE SET model = excluded.model,"
        " vector = excluded.vector",
        [(message_id, session, model, vector) for message_id, session, vector in rows],
    )


def vectors_after(
    db: Connection, session_ids: Sequence[str], model: str, after: int, limit: int
) -> list[tuple[int, Any]]:
    """(message id, vector bytes) of the sessions' latest ``limit`` messages with id >
    ``after``, by id (a long history is not read to be dropped)."""
    marks = ",".join("?" * len(session_ids))
    rows = db.execute(
        "SELECT message_id, vector FROM ("
        f"SELECT message_id, vector FROM embeddings WHERE session_id IN ({marks})"
        " AND message_id > ? AND model = ? ORDER BY message_id DESC LIMIT ?) latest"
        " ORDER BY message_id",
        (*session_ids, after, model, limit),
    )
    return [(int(i), v) for i, v in rows]


def vector_count(db: Connection, model: str) -> tuple[int, int]:
    """(messages stored, messages tried with ``model``) in the whole store: what the
    background worker embeds is the store's, not one session's. A message the model
    failed on (stored with an empty vector) counts as tried."""
    stored = db.execute("SELECT COUNT(*) FROM messages").fetchone()[0]
    tried = db.execute("SELECT COUNT(*) FROM embeddings WHERE model = ?", (model,)).fetchone()[0]
    return int(stored), int(tried)

"""Ingest: each message of a session stored once, verbatim, in order, however often handed back."""

from __future__ import annotations

import hashlib
import json
import sqlite3
import time
from collections.abc import Sequence
from typing import Any

from hermes_core.log import logger
from hermes_core.messages import text_of
from hermes_core.tokens import estimate_message_tokens
from hermes_engine_lcm.store.search import has_cjk

__all__ = ["fingerprint", "ingest", "message_problem", "remember_handed", "searchable_text"]

VALID_ROLES = frozenset({"system", "developer", "user", "assistant", "tool", "function"})
#: How far back a handed-back history is compared with the store when the
#: last stored message is not in it (a reset or replaced history).
RECENT_WINDOW = 2_000
#: How many stored messages an alignment compares at most.
OVERLAP = 64


def encode(message: dict[str, Any]) -> str:
    """The stored form of a message: its JSON, keys in their order; ValueError for NaN."""
    return json.dumps(message, ensure_ascii=False, allow_nan=False)


def fingerprint(message: dict[str, Any], body: str | None = None) -> str:
    """A digest of the whole message (of ``body``, its encoded form, when given)."""
    text = encode(message) if body is None else body
    return hashlib.blake2b(text.encode("utf-8"), digest_size=12).hexdigest()


def searchable_text(message: dict[str, Any]) -> str:
    """What full-text search sees of a message: its text and its tool calls."""
    parts = [text_of(message)]
    for call in message.get("tool_calls") or ():
        function = call.get("function") if isinstance(call, dict) else None
        if isinstance(function, dict):
            parts.append(str(function.get("name", "")))
            arguments = function.get("arguments")
            parts.append(arguments if isinstance(arguments, str) else json.dumps(arguments))
    return "\n".join(p for p in parts if p)


def message_problem(message: Any) -> str | None:
    """Why ``message`` cannot be stored, or None."""
    if not isinstance(message, dict):
        return f"is a {type(message).__name__}, not a message object"
    if message.get("role") not in VALID_ROLES:
        return f"has no valid role (got {message.get('role')!r})"
    content = message.get("content")
    if content is not None and not isinstance(content, (str, list)):
        return f"has content of type {type(content).__name__} (expected text, parts or null)"
    calls = message.get("tool_calls")
    if calls is not None and (
        not isinstance(calls, list) or not all(isinstance(c, dict) for c in calls)
    ):
        return "has tool_calls that are not a list of objects"
    return None


def _usable(
    session_id: str, messages: Sequence[Any], skip: Any
) -> list[tuple[dict[str, Any], str, str]]:
    """The storable messages of ``messages`` as (message, body, fingerprint).

    Malformed ones are left out, each logged as ``lcm.ingest_skipped`` with
    its index and problem; ``skip(message)`` leaves out the engine's own.
    """
    usable: list[tuple[dict[str, Any], str, str]] = []
    for index, message in enumerate(messages):
        problem = message_problem(message)
        body = ""
        if problem is None:
            try:
                body = encode(message)
            except (TypeError, ValueError) as exc:
                problem = f"is not JSON-serialisable ({exc})"
        if problem is not None:
            logger.warning(
                "lcm.ingest_skipped", session_id=session_id, index=index, problem=problem
            )
            continue
        if skip is not None and skip(message):
            continue
        usable.append((message, body, fingerprint(message, body)))
    return usable


def _handed_digests(fps: Sequence[str], prefix: int) -> tuple[str, str]:
    """Digests of the first ``prefix`` fingerprints and of all of them, in one pass."""
    running = hashlib.blake2b(digest_size=16)
    for fp in fps[:prefix]:
        running.update(fp.encode("ascii"))
    head = running.hexdigest()
    for fp in fps[prefix:]:
        running.update(fp.encode("ascii"))
    return head, running.hexdigest()


def remember_handed(
    db: sqlite3.Connection, session_id: str, messages: Sequence[Any], skip: Any = None
) -> None:
    """Record ``messages`` as the list the session's host holds now.

    Compress records its result; a reset records an empty list (all that
    follows is new). The next ingest that extends it stores exactly what
    follows it.
    """
    fps = [entry[2] for entry in _usable(session_id, messages, skip)]
    db.execute(
        "UPDATE sessions SET handed_count = ?, handed_digest = ? WHERE id = ?",
        (len(fps), _handed_digests(fps, 0)[1], session_id),
    )


def _new_messages(
    db: sqlite3.Connection,
    session_id: str,
    pairs: Sequence[tuple[dict[str, Any], str, str]],
) -> Sequence[tuple[dict[str, Any], str, str]]:
    """The part of ``pairs`` (message, body, fingerprint) not stored yet, for
    a list that does not extend the session's handed list (the host rebuilt it).

    The list is aligned with the stored history by the longest run of stored
    messages it ends a prefix with (up to :data:`OVERLAP`); among equally
    good alignments the earliest wins. A history that shares no message with
    the store's end keeps what the session's recent messages do not hold yet.
    """
    recent = [
        r[0]
        for r in db.execute(
            "SELECT fp FROM messages WHERE session_id = ? ORDER BY seq DESC LIMIT ?",
            (session_id, OVERLAP),
        )
    ]
    window = pairs[-RECENT_WINDOW:]
    fps = [entry[2] for entry in window]
    if not recent:
        return window
    best_end, best_overlap = -1, 0
    for end in range(len(fps)):
        if fps[end] != recent[0]:
            continue
        overlap = 1
        while (
            overlap < OVERLAP
            and overlap <= end
            and overlap < len(recent)
            and fps[end - overlap] == recent[overlap]
        ):
            overlap += 1
        if overlap > best_overlap:
            best_end, best_overlap = end, overlap
    if best_end >= 0:
        return window[best_end + 1 :]
    known = _recently_stored(db, session_id, set(fps))
    return [entry for entry in window if entry[2] not in known]


def _recently_stored(db: sqlite3.Connection, session_id: str, fps: set[str]) -> set[str]:
    """Which of ``fps`` the session's last :data:`RECENT_WINDOW` messages hold."""
    rows = db.execute(
        "SELECT fp FROM messages WHERE session_id = ? ORDER BY seq DESC LIMIT ?",
        (session_id, RECENT_WINDOW),
    )
    return {r[0] for r in rows} & fps


def ingest(
    db: sqlite3.Connection,
    session_id: str,
    messages: Sequence[Any],
    skip: Any = None,
    fts: bool = True,
) -> list[int]:
    """Store what is new in ``messages`` for ``session_id``; returns the new message ids.

    Runs inside the caller's write transaction. Malformed messages are not
    stored (``lcm.ingest_skipped`` names the index and the problem); nothing
    of them is written half-way. ``skip(message)`` excludes messages the
    engine wrote itself (its summaries). With ``fts`` the new messages are
    added to the full-text indexes in the same transaction. The session
    remembers the list (its length and a digest) so that the next call can
    tell what it adds.
    """
    usable = _usable(session_id, messages, skip)
    if not usable:
        return []
    now = time.time()
    db.execute("INSERT OR IGNORE INTO sessions (id, created_at) VALUES (?, ?)", (session_id, now))
    seq, position, handed_count, handed_digest = db.execute(
        "SELECT next_seq, next_position, handed_count, handed_digest FROM sessions WHERE id = ?",
        (session_id,),
    ).fetchone()
    head, whole = _handed_digests([entry[2] for entry in usable], handed_count)
    if handed_count <= len(usable) and head == handed_digest:
        # It extends the list the session last handed in or was given back by
        # compress: the rest is new, exactly, even a turn repeated word for word.
        fresh = usable[handed_count:]
    else:
        fresh = _new_messages(db, session_id, usable)
    if not fresh:
        if whole != handed_digest:
            db.execute(
                "UPDATE sessions SET handed_count = ?, handed_digest = ? WHERE id = ?",
                (len(usable), whole, session_id),
            )
        return []
    first_id = (db.execute("SELECT COALESCE(MAX(id), 0) FROM messages").fetchone()[0]) + 1
    rows = []
    items = []
    for offset, (message, body, fp) in enumerate(fresh):
        tokens = estimate_message_tokens(message)
        message_id = first_id + offset
        text = searchable_text(message)
        rows.append(
            (
                message_id,
                session_id,
                seq + offset,
                message["role"],
                text,
                body,
                fp,
                tokens,
                now,
                1 if has_cjk(text) else 0,
            )
        )
        items.append((session_id, position + offset, "message", message_id, tokens))
    db.executemany(
        "INSERT INTO messages (id, session_id, seq, role, text, body, fp, tokens, created_at, cjk)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        rows,
    )
    if fts:
        last_id = first_id + len(rows) - 1
        db.execute(
            "INSERT INTO messages_fts (rowid, text)"
            " SELECT id, text FROM messages WHERE id BETWEEN ? AND ?",
            (first_id, last_id),
        )
        if any(row[-1] for row in rows):
            db.execute(
                "INSERT INTO messages_tri (rowid, text)"
                " SELECT id, text FROM messages WHERE id BETWEEN ? AND ? AND cjk",
                (first_id, last_id),
            )
    db.executemany(
        "INSERT INTO context_items (session_id, position, kind, ref_id, tokens)"
        " VALUES (?, ?, ?, ?, ?)",
        items,
    )
    db.execute(
        "UPDATE sessions SET next_seq = ?, next_position = ?, handed_count = ?, handed_digest = ?"
        " WHERE id = ?",
        (seq + len(fresh), position + len(fresh), len(usable), whole, session_id),
    )
    return [row[0] for row in rows]

"""Ingest: each message of a session stored once, verbatim, in order, however often handed back.

A session remembers the list its host last handed in (or was given back by
``compress``): its length, fingerprints of its first, middle and last
messages, and the sequence number of the stored message its end stands for.
A list that extends it costs only what follows (the checks are three
fingerprints, whatever the history's length); what follows is compared
position by position with what is already stored after that sequence number,
so a conversation that two workers append to is stored once. A list that does
not extend it (the host rebuilt its history) is aligned with the store's end.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from hermes_core import ROLES, estimate_message_tokens, get_logger, text_of
from hermes_engine_lcm.store.protocol import Connection
from hermes_engine_lcm.store.search_rules import has_cjk

__all__ = [
    "Handed",
    "encode",
    "fingerprint",
    "ingest",
    "message_problem",
    "remember_handed",
    "searchable_text",
]

logger = get_logger("hermes_core.engines.lcm")

#: How many stored messages an alignment compares at most.
OVERLAP = 64
#: How many of the latest stored messages a list that does not align is checked against.
RECENT = 2_000


def encode(message: dict[str, Any]) -> str:
    """The stored form of a message: its JSON, keys in their order; ValueError for NaN.

    Text SQLite cannot hold as UTF-8 (a lone surrogate, as ``os.listdir``
    returns for a file name that is not UTF-8) is kept as a JSON ``\\u``
    escape, so the message reads back exactly.
    """
    body = json.dumps(message, ensure_ascii=False, allow_nan=False)
    try:
        body.encode("utf-8")
    except UnicodeEncodeError:
        return json.dumps(message, ensure_ascii=True, allow_nan=False)
    return body


def storable_text(text: str) -> str:
    """``text`` as every backend can index it: anything not encodable as UTF-8, and NUL
    (which PostgreSQL's text cannot hold), becomes U+FFFD."""
    if "\x00" in text:
        text = text.replace("\x00", "\ufffd")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-8", "replace").decode("utf-8")
    return text


#: The fields of a message a provider receives: what makes a message the message it is.
#: Keys a host adds for its own bookkeeping (Hermes Agent's ``timestamp`` on messages read
#: back from its ``state.db``, ``_db_persisted`` once saved) are not among them.
PROVIDER_KEYS = frozenset(
    {
        "role",
        "content",
        "name",
        "tool_calls",
        "tool_call_id",
        "function_call",
        "refusal",
        "audio",
        "reasoning_content",
    }
)


def provider_view(message: Any) -> Any:
    """``message`` as a provider sees it: its :data:`PROVIDER_KEYS` only (a non-dict as it is)."""
    if not isinstance(message, dict):
        return message
    return {key: value for key, value in message.items() if key in PROVIDER_KEYS}


def fingerprint(message: Any) -> str:
    """A digest of what a provider sees of ``message`` (:func:`provider_view`), its keys in
    sorted order: one fingerprint however the message is reached, whatever keys a host
    added to it.

    Never raises: a message that cannot be encoded (NaN, not JSON at all, nested
    past what ``json`` can write) is fingerprinted by a text written by a loop.
    """
    view = provider_view(message)
    try:
        text = json.dumps(view, ensure_ascii=True, allow_nan=False, sort_keys=True)
    except (TypeError, ValueError, RecursionError):
        text = _flat_text(view)
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=12).hexdigest()


def _flat_text(value: Any) -> str:
    """A deterministic text of ``value`` at any depth (a loop, no recursion); a container met
    again on its own path is written as ``<cycle>``."""
    out: list[str] = []
    on_path: set[int] = set()
    stack: list[Any] = [value]
    leave = object()
    while stack:
        item = stack.pop()
        if item is leave:
            on_path.discard(stack.pop())
            out.append(")")
            continue
        if isinstance(item, (dict, list, tuple)):
            if id(item) in on_path:
                out.append("<cycle>")
                continue
            on_path.add(id(item))
            out.append(f"{type(item).__name__}(")
            stack += [id(item), leave]
            children = (
                [x for pair in item.items() for x in pair] if isinstance(item, dict) else item
            )
            stack.extend(reversed(list(children)))
        else:
            out.append(repr(item) + ",")
    return "".join(out)


def searchable_text(message: dict[str, Any]) -> str:
    """What full-text search sees of a message: its text and its tool calls."""
    parts = [text_of(message)]
    for call in message.get("tool_calls") or ():
        function = call.get("function") if isinstance(call, dict) else None
        if isinstance(function, dict):
            parts.append(str(function.get("name", "")))
            arguments = function.get("arguments")
            parts.append(arguments if isinstance(arguments, str) else json.dumps(arguments))
    return storable_text("\n".join(p for p in parts if p))


def message_problem(message: Any) -> str | None:
    """Why ``message`` cannot be stored, or None."""
    if not isinstance(message, dict):
        return f"is a {type(message).__name__}, not a message object"
    role = message.get("role")
    if role.__class__ is not str or role not in ROLES:
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


@dataclass(frozen=True)
class Candidate:
    """A storable message of a handed list: its index there, encoded form and fingerprint."""

    index: int
    message: dict[str, Any]
    body: str
    fp: str


def _usable(session_id: str, messages: Sequence[Any], skip: Any, start: int = 0) -> list[Candidate]:
    """The storable messages of ``messages[start:]``.

    Malformed ones are left out, each logged as ``lcm.ingest_skipped`` with
    its index and problem; ``skip(message)`` leaves out the engine's own.
    """
    usable: list[Candidate] = []
    for index in range(start, len(messages)):
        message = messages[index]
        problem = message_problem(message)
        body = ""
        if problem is None:
            try:
                body = encode(message)
            except (TypeError, ValueError, RecursionError) as exc:
                problem = f"is not JSON-serialisable ({type(exc).__name__}: {exc})"
        if problem is not None:
            logger.warning(
                "lcm.ingest_skipped", session_id=session_id, index=index, problem=problem
            )
            continue
        if skip is not None and skip(message):
            continue
        usable.append(Candidate(index, message, body, fingerprint(message)))
    return usable


@dataclass(frozen=True)
class Handed:
    """What a session remembers of the list its host holds (see the module docstring)."""

    count: int
    head: str | None
    mid: str | None
    tail: str | None
    seq: int

    @classmethod
    def of(cls, messages: Sequence[Any], seq: int) -> Handed:
        if not messages:
            return cls(0, None, None, None, seq)
        return cls(
            len(messages),
            fingerprint(messages[0]),
            fingerprint(messages[(len(messages) - 1) // 2]),
            fingerprint(messages[-1]),
            seq,
        )

    def extended_by(self, messages: Sequence[Any]) -> bool:
        """Whether ``messages`` starts with the remembered list (three fingerprints checked)."""
        if self.count == 0 or len(messages) < self.count:
            return False
        return (
            fingerprint(messages[self.count - 1]) == self.tail
            and fingerprint(messages[0]) == self.head
            and fingerprint(messages[(self.count - 1) // 2]) == self.mid
        )


_MESSAGE_COLUMNS = (
    "id",
    "session_id",
    "seq",
    "role",
    "text",
    "body",
    "fp",
    "tokens",
    "created_at",
    "cjk",
)
_ITEM_COLUMNS = ("session_id", "position", "kind", "ref_id", "tokens")


def _load_handed(db: Connection, session_id: str, now: float) -> tuple[int, int, Handed]:
    """The session's next seq and position and its handed record; the session is recorded
    first if it is new."""
    query = (
        "SELECT next_seq, next_position, handed_count, handed_head_fp, handed_mid_fp,"
        " handed_tail_fp, handed_seq FROM sessions WHERE id = ?"
    )
    row = db.execute(query, (session_id,)).fetchone()
    if row is None:
        db.execute(
            "INSERT INTO sessions (id, created_at) VALUES (?, ?) ON CONFLICT DO NOTHING",
            (session_id, now),
        )
        row = db.execute(query, (session_id,)).fetchone()
    seq, position, count, head, mid, tail, handed_seq = row
    return seq, position, Handed(count, head, mid, tail, handed_seq)


def _save_handed(
    db: Connection, session_id: str, handed: Handed, ends: tuple[int, int] | None = None
) -> None:
    """Record the handed list; with ``ends``, the session's next seq and position too."""
    record = (handed.count, handed.head, handed.mid, handed.tail, handed.seq)
    if ends is None:
        db.execute(
            "UPDATE sessions SET handed_count = ?, handed_head_fp = ?, handed_mid_fp = ?,"
            " handed_tail_fp = ?, handed_seq = ? WHERE id = ?",
            (*record, session_id),
        )
        return
    db.execute(
        "UPDATE sessions SET handed_count = ?, handed_head_fp = ?, handed_mid_fp = ?,"
        " handed_tail_fp = ?, handed_seq = ?, next_seq = ?, next_position = ? WHERE id = ?",
        (*record, *ends, session_id),
    )


def remember_handed(db: Connection, session_id: str, messages: Sequence[Any]) -> None:
    """Record ``messages`` as the list the session's host holds now, its end standing for
    the last stored message.

    Compress records its result; a reset records an empty list (all that
    follows is new).
    """
    last = db.execute("SELECT next_seq FROM sessions WHERE id = ?", (session_id,)).fetchone()
    _save_handed(db, session_id, Handed.of(messages, (last[0] if last else 0) - 1))


def _stored_after(db: Connection, session_id: str, seq: int, limit: int) -> list[str]:
    """Fingerprints of the session's stored messages after ``seq``, in order (at most ``limit``)."""
    rows = db.execute(
        "SELECT fp FROM messages WHERE session_id = ? AND seq > ? ORDER BY seq LIMIT ?",
        (session_id, seq, limit),
    )
    return [row[0] for row in rows]


def _aligned(
    db: Connection, session_id: str, candidates: Sequence[Candidate]
) -> list[Candidate] | None:
    """What of a rebuilt list follows the store's end; None when it does not reach the end.

    The list is aligned with the stored history by the longest run of stored
    messages it ends a prefix with (up to :data:`OVERLAP`); among equally
    good alignments the earliest wins. A store with nothing in it makes the
    whole list new.
    """
    recent = [
        r[0]
        for r in db.execute(
            "SELECT fp FROM messages WHERE session_id = ? ORDER BY seq DESC LIMIT ?",
            (session_id, OVERLAP),
        )
    ]
    if not recent:
        return list(candidates)
    fps = [c.fp for c in candidates]
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
    if best_end < 0:
        return None
    return list(candidates[best_end + 1 :])


def _unseen(
    db: Connection, session_id: str, candidates: Sequence[Candidate], next_seq: int
) -> list[Candidate]:
    """What is new in a list that does not reach the store's end (new messages handed on
    their own, a list rebuilt from an older point or with gaps, another history under the
    same id), by position: the longest prefix of the list whose messages stand in the same
    order among the session's recent messages (gaps allowed) is known; everything after it
    is new, a message said again verbatim included.

    "Recent" is the last :data:`RECENT` stored messages, or as many as there are
    candidates if that is more, read by the (session, seq) index, or else the
    active context's originals in order, whichever explains the longer prefix:
    the cost does not grow with the store.
    """
    window = next_seq - max(RECENT, len(candidates))
    fps = sorted({c.fp for c in candidates})
    if len(fps) > OVERLAP:  # many: read the recent ones once
        rows = db.execute(
            "SELECT fp FROM messages WHERE session_id = ? AND seq >= ? ORDER BY seq",
            (session_id, window),
        )
    else:  # a few (a lone incoming message): only the rows that could match reach Python
        marks = ",".join("?" * len(fps))
        rows = db.execute(
            "SELECT fp FROM messages WHERE session_id = ? AND seq >= ?"
            f" AND fp IN ({marks}) ORDER BY seq",
            (session_id, window, *fps),
        )
    # The active context too: a list the agent kept from compress starts with messages
    # stored long before the recent window (the system prompt, at seq 0), and is, message for
    # message, the active context's originals; read by position, its size bounded by the
    # engine's threshold, not by the store.
    active = db.execute(
        "SELECT m.fp FROM context_items ci JOIN messages m ON m.id = ci.ref_id"
        " WHERE ci.session_id = ? AND ci.kind = 'message' ORDER BY ci.position",
        (session_id,),
    )
    known = max(_known_prefix(candidates, rows), _known_prefix(candidates, active))
    return list(candidates[known:])


def _known_prefix(candidates: Sequence[Candidate], stored: Iterable[Sequence[Any]]) -> int:
    """How many of ``candidates`` stand, in order, among the ``stored`` fingerprint rows
    (gaps allowed): matched greedily, earliest first, the longest such prefix."""
    known = 0
    for (fp,) in stored:
        if known < len(candidates) and fp == candidates[known].fp:
            known += 1
    return known


def ingest(
    db: Connection,
    session_id: str,
    messages: Sequence[Any],
    skip: Any = None,
    fts: bool = True,
) -> list[int]:
    """Store what is new in ``messages`` for ``session_id``; returns the new message ids.

    Runs inside the caller's write transaction, which also makes two writers
    of one session (threads or processes) take turns. Malformed messages are
    not stored (``lcm.ingest_skipped`` names the index and the problem);
    nothing of them is written half-way. ``skip(message)`` excludes messages
    the engine wrote itself (its summaries). With ``fts`` the new messages
    are added to the full-text indexes in the same transaction.
    """
    if not messages:
        return []
    now = time.time()
    seq, position, handed = _load_handed(db, session_id, now)
    if handed.extended_by(messages):
        candidates = _usable(session_id, messages, skip, start=handed.count)
        # what another writer already stored after the same point, in the same order, is not new
        stored = (
            _stored_after(db, session_id, handed.seq, len(candidates))
            if seq > handed.seq + 1  # else nothing is stored after that point
            else []
        )
        same = 0
        while same < len(stored) and candidates[same].fp == stored[same]:
            same += 1
        fresh = candidates[same:]
        aligned = True
    else:
        candidates = _usable(session_id, messages, skip)
        # nothing remembered (a new session, or a reset): the whole list is new
        found = _aligned(db, session_id, candidates) if handed.count else candidates
        aligned = found is not None
        fresh = found if found is not None else _unseen(db, session_id, candidates, seq)
    ids = _store(db, session_id, fresh, seq, position, now, fts) if fresh else []
    ends = (seq + len(fresh), position + len(fresh)) if fresh else None
    if fresh or aligned:
        # a stale list (another worker is further on) is not remembered: the record stays
        _save_handed(db, session_id, Handed.of(messages, seq + len(fresh) - 1), ends)
    elif ends is not None:
        db.execute(
            "UPDATE sessions SET next_seq = ?, next_position = ? WHERE id = ?", (*ends, session_id)
        )
    return ids


def _store(
    db: Connection,
    session_id: str,
    fresh: Sequence[Candidate],
    seq: int,
    position: int,
    now: float,
    fts: bool,
) -> list[int]:
    """Append ``fresh`` to the session (and its active context); returns the new ids."""
    ids = db.new_ids("messages", len(fresh))
    rows = []
    items = []
    for message_id, (offset, candidate) in zip(ids, enumerate(fresh), strict=True):
        message = candidate.message
        tokens = estimate_message_tokens(message)
        text = searchable_text(message)
        rows.append(
            (
                message_id,
                session_id,
                seq + offset,
                message["role"],
                text,
                candidate.body,
                candidate.fp,
                tokens,
                now,
                1 if has_cjk(text) else 0,
            )
        )
        items.append((session_id, position + offset, "message", message_id, tokens))
    db.insert_rows("messages", _MESSAGE_COLUMNS, rows)
    if fts:
        db.index_messages(ids, any(row[-1] for row in rows))
    db.insert_rows("context_items", _ITEM_COLUMNS, items)
    return [row[0] for row in rows]

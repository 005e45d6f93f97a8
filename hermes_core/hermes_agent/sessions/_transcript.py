"""The conversation as it was sent, rebuilt from a Hermes session's stored rows.

A compaction in place (0.19's default) keeps the old rows (``active = 0,
compacted = 1``) and inserts the compacted list as new rows: the protected
head again, Hermes' summary, the protected tail again. A rotation ends the
session and starts a child with the same compacted list. Rewound rows (``/undo``,
``/retry``: ``active = 0, compacted = 0``) were taken back by the user.

Hermes 0.22 also retires the originals of the tail it re-inserts (``active = 0,
compacted = 0``, like a rewind): a retired run that a summary follows (after
nothing but head copies) is such a tail, kept; any other retired run was
taken back by the user, dropped.

Rebuilding walks the rows in order and keeps each message once: rewound rows
and summaries are dropped; at each summary, the head copies just before it
(the rows that repeat the conversation's first messages) are taken back, and
the tail copies just after it (the rows that repeat its latest messages, in
order) are skipped. Tool calls and their results are kept as stored, so they
stay paired. Nothing is guessed from timing: copies are recognised by what
they hold.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from hermes_core.hermes_agent.sessions._summaries import is_engine_block, is_summary
from hermes_core.messages import ROLES

__all__ = ["Transcript", "rebuild"]


@dataclass
class Transcript:
    """The rebuilt conversation, and what was left out of it."""

    messages: list[dict[str, Any]] = field(default_factory=list)
    #: Hermes' compactions seen (its summaries), with the message index each came at.
    compactions: list[int] = field(default_factory=list)
    rewound: int = 0
    copies: int = 0
    #: Engines' blocks of standing instructions left out (carried copies of the user's
    #: own words, which the transcript holds where they were said).
    engine_blocks: int = 0
    #: Rows left out because they cannot be read as a message (a role that is no text,
    #: a field nested past what a decoder can follow): counted, never fatal.
    unreadable: int = 0


def _message(row: Mapping[str, Any]) -> dict[str, Any]:
    """A stored row as an OpenAI-format message."""
    message: dict[str, Any] = {"role": row["role"], "content": _content(row.get("content"))}
    if row.get("tool_calls"):
        try:
            message["tool_calls"] = json.loads(row["tool_calls"])
        except (TypeError, ValueError, RecursionError):
            message["tool_calls"] = []
    if row.get("tool_call_id"):
        message["tool_call_id"] = row["tool_call_id"]
    if row["role"] == "tool" and row.get("tool_name"):
        message["name"] = row["tool_name"]
    return message


def _content(stored: Any) -> Any:
    """Content as sent: text as stored; a list of parts, stored as JSON, decoded."""
    if isinstance(stored, str) and stored.startswith("[{") and stored.endswith("}]"):
        try:
            parts = json.loads(stored)
        except (ValueError, RecursionError):
            return stored
        if isinstance(parts, list) and all(isinstance(p, dict) and "type" in p for p in parts):
            return parts
    return stored


def _key(message: Mapping[str, Any]) -> str:
    """What makes two rows the same message: role, content (text compared without the
    whitespace at its ends, which 0.22 strips from the copies it re-inserts), calls."""
    content = message.get("content")
    return json.dumps(
        [
            message.get("role"),
            content.strip() if isinstance(content, str) else content,
            message.get("tool_calls"),
            message.get("tool_call_id"),
        ],
        sort_keys=True,
        default=str,
    )


def rebuild(rows: Iterable[Mapping[str, Any]], markers: Iterable[str] = ()) -> Transcript:
    """The transcript of ``rows`` (a session chain's, in order): the conversation as it was
    said, every row a compaction wrote (a summary, Hermes' or an engine's; ``markers``
    names more engines' own) taken out and counted as a pass, never as a turn."""
    out = Transcript()
    keys: list[str] = []
    pending: list[Mapping[str, Any]] = []
    markers = tuple(markers)
    for row in rows:
        if not _readable(row):
            out.unreadable += 1
        elif is_engine_block(row):
            out.engine_blocks += 1
        else:
            pending.append({**row, "_summary": is_summary(row, markers)})
    index = 0
    while index < len(pending):
        row = pending[index]
        index += 1
        if _retired(row):
            end = index
            while end < len(pending) and _retired(pending[end]):
                end += 1
            run = pending[index - 1 : end]
            index = end
            if _summary_follows(keys, pending, end):  # a tail that compaction re-inserts
                for kept in run:
                    _append(out, keys, kept)
            else:  # taken back by the user (/undo, /retry)
                out.rewound += len(run)
            continue
        if row["_summary"]:
            out.copies += _take_back_head(out, keys)
            out.compactions.append(len(out.messages))
            skipped = _tail_copies(keys, pending, index)
            out.copies += skipped
            index += skipped
            continue
        _append(out, keys, row)
    return out


def _append(out: Transcript, keys: list[str], row: Mapping[str, Any]) -> None:
    message = _message(row)
    out.messages.append(message)
    keys.append(_key(message))


def _readable(row: Mapping[str, Any]) -> bool:
    """Whether ``row`` can be read as a message: a role a message has, and fields a decoder
    can follow (one nested 100,000 deep cannot)."""
    if row.get("role") not in ROLES:
        return False
    try:
        _key(_message(row))
    except (TypeError, ValueError, RecursionError):
        return False
    return True


def _retired(row: Mapping[str, Any]) -> bool:
    """Neither live nor compacted: rewound by the user, or (0.22) a tail original whose
    copy compaction re-inserted."""
    return not row.get("active") and not row.get("compacted")


def _summary_follows(keys: list[str], rows: list[Mapping[str, Any]], start: int) -> bool:
    """Whether a summary comes next, after nothing but copies of the conversation's first
    messages (the head a compaction re-inserts before its summary)."""
    for offset, row in enumerate(rows[start : start + len(keys) + 1]):
        if row["_summary"]:
            return True
        if offset >= len(keys) or _key(_message(row)) != keys[offset]:
            return False
    return False


def _take_back_head(out: Transcript, keys: list[str]) -> int:
    """Drop the head copies at the end of the transcript: the longest run of its last
    messages that repeats its first ones (at most half of it). Their count."""
    for size in range(len(keys) // 2, 0, -1):
        # the first message decides before any slice is made (a long session has many sizes)
        if keys[-size] == keys[0] and keys[-size:] == keys[:size]:
            del keys[-size:]
            del out.messages[-size:]
            return size
    return 0


def _tail_copies(keys: list[str], rows: list[Mapping[str, Any]], start: int) -> int:
    """How many rows from ``start`` repeat, in order, the transcript's latest messages (the
    tail a compaction re-inserts): the longest such run that ends at the transcript's end."""
    upcoming: list[str] = []
    for row in rows[start : start + len(keys)]:
        if _retired(row):
            break
        if row["_summary"]:
            break
        upcoming.append(_key(_message(row)))
    for size in range(min(len(upcoming), len(keys)), 0, -1):
        if upcoming[0] == keys[-size] and upcoming[:size] == keys[-size:]:
            return size
    return 0

"""Assembling a request from the store: system prompt, summaries, relevant originals, fresh tail."""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Sequence
from typing import Any

from hermes_engine_lcm.render import summary_message
from hermes_engine_lcm.store.nodes import Item, load_messages, load_summary
from hermes_engine_lcm.store.records import messages_around
from hermes_engine_lcm.store.search import search

__all__ = ["active_messages", "relevant_groups"]

_WORD = re.compile(r"\w+", re.UNICODE)
#: Words too common to say what a message is about.
_STOP_WORDS = (
    "the and for are but not you all any can had her was one our out has him his how its "
    "may new now old see two way who did get let put say she too use what when where which "
    "while with would could should this that these those there their them they then than "
    "from have been were will into about your just like more some such only also very"
)
_STOP = frozenset(_STOP_WORDS.split())


def active_messages(db: sqlite3.Connection, items: Sequence[Item]) -> list[dict[str, Any]]:
    """The active context as chat messages; consecutive summaries share one message."""
    bodies = load_messages(db, [i.ref_id for i in items if i.kind == "message"])
    out: list[dict[str, Any]] = []
    pending: list[Any] = []
    for item in items:
        if item.kind == "summary":
            row = load_summary(db, item.ref_id)
            if row is not None:
                pending.append(row)
            continue
        if pending:
            out.append(summary_message(pending))
            pending = []
        out.append(bodies[item.ref_id])
    if pending:
        out.append(summary_message(pending))
    return out


def _group_of(db: sqlite3.Connection, session_id: str, seq: int) -> list[tuple[int, int]]:
    """(id, seq) of the whole tool group around message ``seq``: the call and all its results."""
    rows = messages_around(db, session_id, seq, 16)
    index = next(i for i, row in enumerate(rows) if row.seq == seq)
    start = index
    while start > 0 and rows[start].role == "tool":
        start -= 1
    end = start + 1
    while end < len(rows) and rows[end].role == "tool":
        end += 1
    return [(row.id, row.seq) for row in rows[start:end]]


def relevant_groups(
    db: sqlite3.Connection,
    session_id: str,
    query: str,
    active_ids: set[int],
    limit: int,
    fts: bool,
) -> list[tuple[int, dict[str, Any]]]:
    """Folded-away messages most relevant to ``query``, as whole tool groups, by seq."""
    if limit <= 0 or not query.strip():
        return []
    words = [w for w in _WORD.findall(query[:2_000]) if len(w) > 2 and w.lower() not in _STOP]
    if not words:
        return []
    hits = search(
        db,
        "message",
        " ".join(words),
        [session_id],
        limit * 3,
        recency=False,
        fts=fts,
        any_word=True,
    )
    chosen: dict[int, int] = {}
    groups = 0
    for hit in hits:
        if hit.id in active_ids or hit.id in chosen:
            continue
        group = _group_of(db, session_id, hit.order)
        if any(message_id in active_ids for message_id, _ in group):
            continue
        chosen.update(group)
        groups += 1
        if groups >= limit:
            break
    bodies = load_messages(db, list(chosen))
    return [(seq, bodies[i]) for i, seq in sorted(chosen.items(), key=lambda kv: kv[1])]

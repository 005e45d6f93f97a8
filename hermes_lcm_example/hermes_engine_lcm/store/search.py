"""Full-text search that treats every query as literal text.

Words go to the unicode61 index as quoted strings (so quotes, ``*``, ``NEAR``,
``OR`` and parentheses are just characters); substrings and CJK text go to
the trigram index as one quoted phrase; queries shorter than three
characters, and stores without FTS5, use an escaped ``LIKE`` scan.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["Hit", "has_cjk", "search"]

_WORD = re.compile(r"\w+", re.UNICODE)
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]")


@dataclass(frozen=True)
class Hit:
    kind: str  # "message" or "summary"
    id: int
    session_id: str
    text: str
    order: int  # seq for messages, last_seq for summaries


def has_cjk(text: str) -> bool:
    """Whether ``text`` holds characters of a script written without spaces between words."""
    return _CJK.search(text) is not None


def _quote(text: str) -> str:
    return '"' + text.replace('"', '""') + '"'


def _like(text: str) -> str:
    return "%" + text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"


_TABLES = {
    "message": ("messages", "seq"),
    "summary": ("summaries", "last_seq"),
}


def search(
    db: sqlite3.Connection,
    kind: str,
    query: str,
    session_ids: Sequence[str] | None,
    limit: int,
    recency: bool,
    fts: bool,
    any_word: bool = False,
) -> list[Hit]:
    """Up to ``limit`` hits of ``kind`` for ``query`` within ``session_ids`` (None: every session).

    Documents with every word come first; when they are fewer than
    ``limit``, documents with any of the words (best ranked) follow.
    ``any_word`` skips the every-word round.
    """
    table, order = _TABLES[kind]
    where, params = "", []
    if session_ids is not None:
        where = f" AND t.session_id IN ({','.join('?' * len(session_ids))})"
        params = list(session_ids)
    select = f"SELECT t.id, t.session_id, t.text, t.{order} FROM {table} t"
    text = query.strip()
    hits: dict[int, Hit] = {}

    def run(sql: str, args: list[object]) -> None:
        for row in db.execute(sql, args):
            if row[0] not in hits and len(hits) < limit:
                hits[row[0]] = Hit(kind, row[0], row[1], row[2], row[3])

    ranking = "f.rowid DESC" if recency else "f.rank"
    words = list(dict.fromkeys(_WORD.findall(text)))
    if fts and words and not _CJK.search(text):
        rounds = [" OR ".join(_quote(w) for w in words)]
        if not any_word and len(words) > 1:
            rounds.insert(0, " ".join(_quote(w) for w in words))
        for match in rounds:
            if len(hits) >= limit:
                break
            run(
                f"{select} JOIN {table}_fts f ON f.rowid = t.id WHERE {table}_fts MATCH ?{where}"
                f" ORDER BY {ranking} LIMIT ?",
                [match, *params, limit],
            )
    if len(hits) < limit and fts and len(text) >= 3 and _CJK.search(text):
        run(
            f"{select} JOIN {table}_tri f ON f.rowid = t.id WHERE {table}_tri MATCH ?{where}"
            f" ORDER BY {ranking} LIMIT ?",
            [_quote(text), *params, limit],
        )
    scan = not fts or (_CJK.search(text) and len(text) < 3) or not words
    if len(hits) < limit and scan and text:
        run(
            f"{select} WHERE t.text LIKE ? ESCAPE '\\'{where} ORDER BY t.{order} DESC LIMIT ?",
            [_like(text), *params, limit],
        )
    return list(hits.values())

"""Full-text search on SQLite: the FTS5 answer to each round of ``store.search``.

Words go to FTS5 as quoted strings (so quotes, ``*``, ``NEAR``, ``OR`` and
parentheses are just characters): for messages the stemmed index
(``messages_stem``), for summaries the unicode61 index. Substrings and CJK
text go to the trigram index as one quoted phrase; queries shorter than
three characters, and stores without FTS5, use an escaped ``LIKE`` scan.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from hermes_engine_lcm.store.protocol import Connection, Hits, Row
from hermes_engine_lcm.store.search_rules import CJK, like_pattern

__all__ = ["Fts5Search"]

_TABLES = {
    "message": ("messages", "seq", "messages_stem"),
    "summary": ("summaries", "last_seq", "summaries_fts"),
}


def _quote(text: str) -> str:
    return '"' + text.replace('"', '""') + '"'


class Fts5Search:
    """Searches a SQLite store within some sessions (None: every session)."""

    def __init__(self, db: Connection, session_ids: Sequence[str] | None, fts: bool) -> None:
        self.db = db
        self.fts = fts
        self.where, self.params = "", list[object]()
        if session_ids is not None:
            self.where = f" AND t.session_id IN ({','.join('?' * len(session_ids))})"
            self.params = list(session_ids)

    def word_query(self, words: Sequence[str], every: bool) -> str:
        return (" " if every else " OR ").join(_quote(w) for w in words)

    def _rows(self, kind: str, index: str, match: str, hits: Hits, recency: bool) -> Iterable[Row]:
        table, order, _ = _TABLES[kind]
        ranking = "f.rowid DESC" if recency else "f.rank"
        return self.db.execute(
            f"SELECT t.id, t.session_id, t.text, t.{order} FROM {table} t"
            f" JOIN {index} f ON f.rowid = t.id WHERE {index} MATCH ?{self.where}"
            f" ORDER BY {ranking} LIMIT ?",
            [match, *self.params, hits.limit],
        )

    def word_round(self, kind: str, match: str, hits: Hits, recency: bool) -> Iterable[Row]:
        if not self.fts:
            return []
        return self._rows(kind, _TABLES[kind][2], match, hits, recency)

    def substring_round(
        self, kind: str, text: str, words: Sequence[str], hits: Hits, recency: bool
    ) -> Iterable[Row]:
        cjk = CJK.search(text) is not None
        table, order, _ = _TABLES[kind]
        if self.fts and cjk and len(text) >= 3:
            return self._rows(kind, f"{table}_tri", _quote(text), hits, recency)
        if self.fts and words and not cjk:
            return []  # the word rounds have searched it
        return self.db.execute(
            f"SELECT t.id, t.session_id, t.text, t.{order} FROM {table} t"
            f" WHERE t.text LIKE ? ESCAPE '\\'{self.where} ORDER BY t.{order} DESC LIMIT ?",
            [like_pattern(text), *self.params, hits.limit],
        )

    def ranked(self, words: Sequence[str], limit: int) -> list[int]:
        rows = self.db.execute(
            "SELECT t.id FROM messages t JOIN messages_stem f ON f.rowid = t.id"
            f" WHERE messages_stem MATCH ?{self.where} ORDER BY f.rank LIMIT ?",
            [self.word_query(words, every=False), *self.params, limit],
        )
        return [row[0] for row in rows]

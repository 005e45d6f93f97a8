"""Full-text search that treats every query as literal text, on either backend.

A search runs the same rounds on SQLite and PostgreSQL, until it holds
``limit`` hits: documents with every word, then documents with any word
(best ranked), then substrings (CJK text, queries with no word). Only the
SQL differs: a :class:`SearchDialect` per backend (``store.fts5`` for
SQLite, ``store.postgres.search`` for PostgreSQL) answers each round.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Protocol

from hermes_engine_lcm.store.connection import Connection
from hermes_engine_lcm.store.search_rules import CJK, WORD, Hit, query_words

__all__ = ["Hit", "Hits", "SearchDialect", "ranked_messages", "search"]

#: A row a round answers: id, session id, text, position (seq, or a summary's last seq).
Row = Sequence[Any]


class Hits:
    """The hits a search has gathered, in the order found, up to ``limit``."""

    def __init__(self, kind: str, limit: int) -> None:
        self.kind = kind
        self.limit = limit
        self._found: dict[int, Hit] = {}

    @property
    def room(self) -> int:
        """How many more hits the search takes."""
        return self.limit - len(self._found)

    def __contains__(self, ident: object) -> bool:
        return ident in self._found

    def add(self, rows: Iterable[Row]) -> None:
        """Keep each row not already held, while there is room."""
        for ident, session_id, text, position in rows:
            if self.room <= 0:
                return
            if ident not in self._found:
                self._found[ident] = Hit(self.kind, ident, session_id, text, position)

    def found(self) -> list[Hit]:
        return list(self._found.values())


class SearchDialect(Protocol):
    """One backend's answer to each round of a search (scoped to some sessions)."""

    def word_query(self, words: Sequence[str], every: bool) -> str:
        """The backend's match expression for ``words``: all of them, or any."""

    def word_round(self, kind: str, match: str, hits: Hits, recency: bool) -> Iterable[Row]:
        """Rows of ``kind`` matching ``match``, best first (latest first with ``recency``)."""

    def substring_round(
        self, kind: str, text: str, words: Sequence[str], hits: Hits, recency: bool
    ) -> Iterable[Row]:
        """Rows holding ``text`` as a substring, where words cannot find it (else none)."""

    def ranked(self, words: Sequence[str], limit: int) -> list[int]:
        """Ids of the messages that best match any of ``words``, best first."""


def dialect_for(db: Connection, session_ids: Sequence[str] | None, fts: bool) -> SearchDialect:
    """The dialect that searches ``db`` within ``session_ids`` (None: every session)."""
    if db.dialect == "postgresql":
        from hermes_engine_lcm.store.postgres.search import PostgresSearch

        return PostgresSearch(db, session_ids)
    from hermes_engine_lcm.store.fts5 import Fts5Search

    return Fts5Search(db, session_ids, fts)


def search(
    db: Connection,
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
    ``limit``, documents with any of the words (best ranked) follow, then
    substrings. ``any_word`` skips the every-word round. ``fts`` says
    whether the SQLite store has its full-text indexes (PostgreSQL always has).
    """
    dialect = dialect_for(db, session_ids, fts)
    text = query.strip()
    hits = Hits(kind, limit)
    words = list(dict.fromkeys(WORD.findall(text)))
    if kind == "message":
        # messages rank over stemmed words without function words ("painted" finds
        # "painting", "what" finds nothing); a query of function words alone keeps them all
        words = query_words(text) or words
    if words and not CJK.search(text):
        rounds = [dialect.word_query(words, every=False)]
        if not any_word and len(words) > 1:
            rounds.insert(0, dialect.word_query(words, every=True))
        for match in rounds:
            if hits.room <= 0:
                break
            hits.add(dialect.word_round(kind, match, hits, recency))
    if hits.room > 0 and text:
        hits.add(dialect.substring_round(kind, text, words, hits, recency))
    return hits.found()


def ranked_messages(
    db: Connection, session_ids: Sequence[str] | None, query: str, limit: int
) -> list[int]:
    """Ids of the messages most relevant to ``query`` (natural language), best first.

    Any of the query's words, without function words; an empty list when
    the query has no such words or the store has no full-text index.
    """
    words = query_words(query)
    if not words:
        return []
    return dialect_for(db, session_ids, fts=True).ranked(words, limit)

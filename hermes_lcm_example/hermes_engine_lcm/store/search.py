"""Full-text search that treats every query as literal text, on either backend.

A search runs the same rounds on SQLite and PostgreSQL, until it holds
``limit`` hits: documents with every word, then documents with any word
(best ranked), then substrings (CJK text, queries with no word). Only the
SQL differs: the connection's own
:class:`~hermes_engine_lcm.store.protocol.SearchDialect` (``store.sqlite.search``
for SQLite, ``store.postgres.search`` for PostgreSQL) answers each round.
"""

from __future__ import annotations

from collections.abc import Sequence

from hermes_engine_lcm.store.protocol import Connection, Hits
from hermes_engine_lcm.store.search_rules import CJK, WORD, Hit, query_words

__all__ = ["Hit", "ranked_messages", "search"]


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
    dialect = db.searcher(session_ids, fts)
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
    return db.searcher(session_ids, True).ranked(words, limit)

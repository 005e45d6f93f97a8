"""Full-text search that treats every query as literal text, on either backend.

On SQLite, words go to FTS5 as quoted strings (so quotes, ``*``, ``NEAR``,
``OR`` and parentheses are just characters): for messages the stemmed index,
without English function words, so a question in plain language ranks by
what it is about; for summaries the unicode61 index. Substrings and CJK text
go to the trigram index as one quoted phrase; queries shorter than three
characters, and stores without FTS5, use an escaped ``LIKE`` scan. On
PostgreSQL the same rules run on tsvector and pg_trgm (``store.postgres.search``).
"""

from __future__ import annotations

from collections.abc import Sequence

from hermes_engine_lcm.store.connection import Connection
from hermes_engine_lcm.store.search_rules import CJK, WORD, Hit, like_pattern, query_words

__all__ = ["Hit", "ranked_messages", "search"]


def _quote(text: str) -> str:
    return '"' + text.replace('"', '""') + '"'


_TABLES = {
    "message": ("messages", "seq"),
    "summary": ("summaries", "last_seq"),
}


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
    ``limit``, documents with any of the words (best ranked) follow.
    ``any_word`` skips the every-word round.
    """
    if db.dialect == "postgresql":
        from hermes_engine_lcm.store.postgres import search as postgres

        return postgres.search(db, kind, query, session_ids, limit, recency, any_word)
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
    words = list(dict.fromkeys(WORD.findall(text)))
    # messages rank over stemmed words without function words ("painted" finds "painting",
    # "what" finds nothing); a query of function words alone keeps them all
    index = f"{table}_fts"
    if kind == "message":
        index, words = "messages_stem", query_words(text) or words
    if fts and words and not CJK.search(text):
        rounds = [" OR ".join(_quote(w) for w in words)]
        if not any_word and len(words) > 1:
            rounds.insert(0, " ".join(_quote(w) for w in words))
        for match in rounds:
            if len(hits) >= limit:
                break
            run(
                f"{select} JOIN {index} f ON f.rowid = t.id WHERE {index} MATCH ?{where}"
                f" ORDER BY {ranking} LIMIT ?",
                [match, *params, limit],
            )
    if len(hits) < limit and fts and len(text) >= 3 and CJK.search(text):
        run(
            f"{select} JOIN {table}_tri f ON f.rowid = t.id WHERE {table}_tri MATCH ?{where}"
            f" ORDER BY {ranking} LIMIT ?",
            [_quote(text), *params, limit],
        )
    scan = not fts or (CJK.search(text) and len(text) < 3) or not words
    if len(hits) < limit and scan and text:
        run(
            f"{select} WHERE t.text LIKE ? ESCAPE '\\'{where} ORDER BY t.{order} DESC LIMIT ?",
            [like_pattern(text), *params, limit],
        )
    return list(hits.values())


def ranked_messages(
    db: Connection, session_ids: Sequence[str] | None, query: str, limit: int
) -> list[int]:
    """Ids of the messages most relevant to ``query`` (natural language), best first.

    BM25 over the stemmed index (``messages_stem``), any of the query's words
    (each quoted: the query is literal); an empty list when the query has no
    such words or the store has no full-text index.
    """
    if db.dialect == "postgresql":
        from hermes_engine_lcm.store.postgres import search as postgres

        return postgres.ranked_messages(db, session_ids, query, limit)
    words = query_words(query)
    if not words:
        return []
    where, params = "", []
    if session_ids is not None:
        where = f" AND t.session_id IN ({','.join('?' * len(session_ids))})"
        params = list(session_ids)
    match = " OR ".join(_quote(w) for w in words)
    rows = db.execute(
        "SELECT t.id FROM messages t JOIN messages_stem f ON f.rowid = t.id"
        f" WHERE messages_stem MATCH ?{where} ORDER BY f.rank LIMIT ?",
        [match, *params, limit],
    )
    return [row[0] for row in rows]

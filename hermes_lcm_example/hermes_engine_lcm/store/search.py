"""Full-text search that treats every query as literal text.

Words go to the index as quoted strings (so quotes, ``*``, ``NEAR``, ``OR`` and
parentheses are just characters): for messages the stemmed index, without
English function words, so a question in plain language ranks by what it is
about; for summaries the unicode61 index. Substrings and CJK text go to the
trigram index as one quoted phrase; queries shorter than three characters,
and stores without FTS5, use an escaped ``LIKE`` scan.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from hermes_engine_lcm.store.connection import Connection

__all__ = ["Hit", "has_cjk", "query_words", "ranked_messages", "search"]

_WORD = re.compile(r"\w+", re.UNICODE)
#: English function words (articles, pronouns, auxiliaries, prepositions,
#: conjunctions, question words, contraction tails): they say nothing about
#: what a message is about, so a query ranks by its other words.
_STOP_WORDS = frozenset(
    [
        "a",
        "an",
        "the",
        "and",
        "or",
        "but",
        "if",
        "then",
        "than",
        "so",
        "as",
        "at",
        "by",
        "for",
        "from",
        "in",
        "into",
        "of",
        "on",
        "onto",
        "out",
        "over",
        "to",
        "up",
        "with",
        "about",
        "after",
        "before",
        "between",
        "under",
        "again",
        "once",
        "here",
        "there",
        "when",
        "where",
        "why",
        "how",
        "what",
        "which",
        "who",
        "whom",
        "whose",
        "this",
        "that",
        "these",
        "those",
        "am",
        "is",
        "are",
        "was",
        "were",
        "be",
        "been",
        "being",
        "have",
        "has",
        "had",
        "having",
        "do",
        "does",
        "did",
        "doing",
        "would",
        "should",
        "could",
        "can",
        "will",
        "shall",
        "may",
        "might",
        "must",
        "i",
        "me",
        "my",
        "myself",
        "we",
        "our",
        "ours",
        "us",
        "you",
        "your",
        "yours",
        "he",
        "him",
        "his",
        "she",
        "her",
        "hers",
        "it",
        "its",
        "they",
        "them",
        "their",
        "theirs",
        "not",
        "no",
        "nor",
        "only",
        "own",
        "same",
        "too",
        "very",
        "just",
        "also",
        "such",
        "some",
        "any",
        "all",
        "both",
        "each",
        "other",
        "s",
        "t",
        "d",
        "ll",
        "re",
        "ve",
        "m",
    ]
)
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
    # messages rank over stemmed words without function words ("painted" finds "painting",
    # "what" finds nothing); a query of function words alone keeps them all
    index = f"{table}_fts"
    if kind == "message":
        index, words = "messages_stem", query_words(text) or words
    if fts and words and not _CJK.search(text):
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


def query_words(text: str, limit: int = 64) -> list[str]:
    """The words of a natural-language query that say what it is about: lowercased, without
    function words, each once, in order (at most ``limit``)."""
    words = [w for w in _WORD.findall(text.lower()) if w not in _STOP_WORDS]
    return list(dict.fromkeys(words))[:limit]


def ranked_messages(
    db: Connection, session_ids: Sequence[str] | None, query: str, limit: int
) -> list[int]:
    """Ids of the messages most relevant to ``query`` (natural language), best first.

    BM25 over the stemmed index (``messages_stem``), any of the query's words
    (each quoted: the query is literal); an empty list when the query has no
    such words or the store has no full-text index.
    """
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

"""Full-text search on PostgreSQL, with the same rules as on SQLite (``store.search``).

Every query is literal: its words (``\\w+``, so no tsquery operator can be in
one) are joined by ``&`` (every word) or ``|`` (any word) and parsed by
``to_tsquery`` with the column's configuration (``english``: stemmed, as
SQLite's porter index; ``simple`` for summaries). Relevance is ``ts_rank``
over the stored ``tsvector``, computed for the latest :data:`RANK_WINDOW`
matches at most, so a word found in half a million messages costs a bounded
amount. CJK text is searched as a substring (``LIKE``) on the rows that hold
such text, which the ``pg_trgm`` index serves; short queries and queries
with no word are an escaped ``LIKE`` scan, as on SQLite.
"""

from __future__ import annotations

from collections.abc import Sequence

from hermes_engine_lcm.store.connection import Connection
from hermes_engine_lcm.store.search_rules import CJK, WORD, Hit, like_pattern, query_words

__all__ = ["ranked_messages", "search"]

#: The latest matches of a query ranked by relevance, at most.
RANK_WINDOW = 5_000
#: Matches are looked for among the latest this many rows first (of the conversation
#: searched, or of the table), then, when they are too few, among all: what a search costs
#: is then bounded by this number, not by the size of the store (a GIN index hands over
#: every match, and each is read from the table).
RECENT_ROWS = 20_000

_TABLES = {
    "message": ("messages", "seq", "english"),
    "summary": ("summaries", "last_seq", "simple"),
}


def _scope(session_ids: Sequence[str] | None) -> tuple[str, list[object]]:
    if session_ids is None:
        return "", []
    return " AND t.session_id = ANY(?)", [list(session_ids)]


def _window(db: Connection, table: str, session_ids: Sequence[str] | None) -> tuple[str, int]:
    """Where the latest :data:`RECENT_ROWS` rows of the search's scope begin: a column and
    the value it must exceed (0: the scope is small enough to search whole)."""
    if table == "messages" and session_ids is not None and len(session_ids) == 1:
        # one conversation (the usual scope): its latest rows, whatever the other sessions
        # of a shared store wrote since (the planner ANDs the word and (session, seq) indexes)
        row = db.execute("SELECT next_seq FROM sessions WHERE id = ?", (session_ids[0],))
        return "seq", max(0, (row.fetchone() or (0,))[0] - RECENT_ROWS)
    if table == "messages":
        newest = db.execute("SELECT COALESCE(MAX(id), 0) FROM messages").fetchone()[0]
        return "id", max(0, newest - RECENT_ROWS)
    return "id", 0  # summaries: one per thousands of tokens folded, few enough to search whole


def _ranked(
    db: Connection,
    table: str,
    config: str,
    match: str,
    session_ids: Sequence[str] | None,
    limit: int,
    recency: bool,
    window: tuple[str, int],
) -> list[int]:
    """Ids of up to ``limit`` rows of ``table`` matching the tsquery ``match``, best first
    (latest first with ``recency``): within ``window`` (see :func:`_window`), then, if
    those are not enough, among all."""
    where, params = _scope(session_ids)
    ranking = "id DESC" if recency else "ts_rank(words, q) DESC, id DESC"
    column, start = window
    found: list[int] = []
    for floor in (start, None):
        if floor is not None and floor <= 0:
            continue
        bound = f" AND t.{column} > ?" if floor is not None else ""
        rows = db.execute(
            "SELECT id FROM ("
            f" SELECT t.id, t.words FROM {table} t"
            f" WHERE t.words @@ to_tsquery('{config}', ?){bound}{where}"
            f" ORDER BY t.id DESC LIMIT {RANK_WINDOW}) m,"
            f" to_tsquery('{config}', ?) q ORDER BY {ranking} LIMIT ?",
            [match, *([floor] if floor is not None else []), *params, match, limit],
        )
        found += [row[0] for row in rows if row[0] not in found]
        if len(found) >= limit:
            break
    return found[:limit]


def search(
    db: Connection,
    kind: str,
    query: str,
    session_ids: Sequence[str] | None,
    limit: int,
    recency: bool,
    any_word: bool = False,
) -> list[Hit]:
    """Up to ``limit`` hits of ``kind`` for ``query`` (see ``store.search.search``)."""
    table, order, config = _TABLES[kind]
    where, params = _scope(session_ids)
    text = query.strip()
    hits: dict[int, Hit] = {}

    def run(sql: str, args: list[object]) -> None:
        for row in db.execute(sql, args):
            if row[0] not in hits and len(hits) < limit:
                hits[row[0]] = Hit(kind, row[0], row[1], row[2], row[3])

    words = list(dict.fromkeys(WORD.findall(text)))
    if kind == "message":
        words = query_words(text) or words
    cjk = CJK.search(text) is not None
    if words and not cjk:
        rounds = [" | ".join(words)]
        if not any_word and len(words) > 1:
            rounds.insert(0, " & ".join(words))
        window = _window(db, table, session_ids)
        for match in rounds:
            if len(hits) >= limit:
                break
            # the earlier round's hits rank among these too: asking for ``limit`` leaves room
            ids = _ranked(db, table, config, match, session_ids, limit, recency, window)
            ids = [i for i in ids if i not in hits][: limit - len(hits)]
            if ids:
                rows = {
                    row[0]: row
                    for row in db.execute(
                        f"SELECT id, session_id, text, {order} FROM {table} WHERE id = ANY(?)",
                        [ids],
                    )
                }
                for i in ids:
                    row = rows[i]
                    hits[i] = Hit(kind, row[0], row[1], row[2], row[3])
    function_words_only = kind == "message" and not query_words(text)
    if len(hits) < limit and text and (cjk or not words or function_words_only):
        # substrings: CJK text (the trigram index holds the rows with such text), queries
        # with no word, and queries of function words alone (the dictionary drops them)
        only_cjk = " AND t.cjk = 1" if cjk and kind == "message" else ""
        run(
            f"SELECT t.id, t.session_id, t.text, t.{order} FROM {table} t"
            f" WHERE t.text LIKE ? ESCAPE '\\'{only_cjk}{where} ORDER BY t.{order} DESC LIMIT ?",
            [like_pattern(text), *params, limit],
        )
    return list(hits.values())


def ranked_messages(
    db: Connection, session_ids: Sequence[str] | None, query: str, limit: int
) -> list[int]:
    """Ids of the messages most relevant to ``query`` (natural language), best first."""
    words = query_words(query)
    if not words:
        return []
    window = _window(db, "messages", session_ids)
    match = " | ".join(words)
    return _ranked(db, "messages", "english", match, session_ids, limit, False, window)

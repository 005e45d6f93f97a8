"""Full-text search on PostgreSQL: its answer to each round of ``store.search``.

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

from collections.abc import Iterable, Sequence

from hermes_engine_lcm.store.protocol import Connection, Hits, Row
from hermes_engine_lcm.store.search_rules import CJK, like_pattern, query_words

__all__ = ["RANK_WINDOW", "RECENT_ROWS", "PostgresSearch"]

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


class PostgresSearch:
    """Searches a PostgreSQL store within some sessions (None: every session)."""

    def __init__(self, db: Connection, session_ids: Sequence[str] | None) -> None:
        self.db = db
        self.session_ids = session_ids
        self.where, self.params = _scope(session_ids)
        self._windows: dict[str, tuple[str, int]] = {}

    def _window(self, table: str) -> tuple[str, int]:
        if table not in self._windows:  # once a search: both word rounds look at one window
            self._windows[table] = _window(self.db, table, self.session_ids)
        return self._windows[table]

    def _ranked(self, kind: str, match: str, limit: int, recency: bool) -> list[int]:
        """Ids of up to ``limit`` rows of ``kind`` matching the tsquery ``match``, best
        first (latest first with ``recency``): within the latest rows of the scope (see
        :func:`_window`), then, if those are not enough, among all."""
        table, _, config = _TABLES[kind]
        ranking = "id DESC" if recency else "ts_rank(words, q) DESC, id DESC"
        column, start = self._window(table)
        found: list[int] = []
        for floor in (start, None):
            if floor is not None and floor <= 0:
                continue
            bound = f" AND t.{column} > ?" if floor is not None else ""
            rows = self.db.execute(
                "SELECT id FROM ("
                f" SELECT t.id, t.words FROM {table} t"
                f" WHERE t.words @@ to_tsquery('{config}', ?){bound}{self.where}"
                f" ORDER BY t.id DESC LIMIT {RANK_WINDOW}) m,"
                f" to_tsquery('{config}', ?) q ORDER BY {ranking} LIMIT ?",
                [match, *([floor] if floor is not None else []), *self.params, match, limit],
            )
            found += [row[0] for row in rows if row[0] not in found]
            if len(found) >= limit:
                break
        return found[:limit]

    def word_query(self, words: Sequence[str], every: bool) -> str:
        return (" & " if every else " | ").join(words)

    def word_round(self, kind: str, match: str, hits: Hits, recency: bool) -> Iterable[Row]:
        table, order, _ = _TABLES[kind]
        # the earlier round's hits rank among these too: asking for ``limit`` leaves room
        ids = self._ranked(kind, match, hits.limit, recency)
        ids = [i for i in ids if i not in hits][: hits.room]
        if not ids:
            return []
        rows = {
            row[0]: row
            for row in self.db.execute(
                f"SELECT id, session_id, text, {order} FROM {table} WHERE id = ANY(?)", [ids]
            )
        }
        return [rows[i] for i in ids]

    def substring_round(
        self, kind: str, text: str, words: Sequence[str], hits: Hits, recency: bool
    ) -> Iterable[Row]:
        cjk = CJK.search(text) is not None
        function_words_only = kind == "message" and not query_words(text)
        if not (cjk or not words or function_words_only):
            return []  # the word rounds have searched it
        # substrings: CJK text (the trigram index holds the rows with such text), queries
        # with no word, and queries of function words alone (the dictionary drops them)
        table, order, _ = _TABLES[kind]
        only_cjk = " AND t.cjk = 1" if cjk and kind == "message" else ""
        return self.db.execute(
            f"SELECT t.id, t.session_id, t.text, t.{order} FROM {table} t"
            f" WHERE t.text LIKE ? ESCAPE '\\'{only_cjk}{self.where}"
            f" ORDER BY t.{order} DESC LIMIT ?",
            [like_pattern(text), *self.params, hits.limit],
        )

    def ranked(self, words: Sequence[str], limit: int) -> list[int]:
        return self._ranked("message", self.word_query(words, every=False), limit, False)

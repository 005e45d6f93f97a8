"""Which stored messages are relevant to a query: one small interface for selection and
``lcm_grep``, with keyword relevance (BM25 / full-text) as the default and a hybrid that
fuses it with embedding similarity.

Fusion is reciprocal-rank fusion (each message scores the sum of 1 / (60 +
its rank) over the orders: keywords, and cosine similarity to each of a
message's two views, alone and in context, :mod:`~hermes_engine_lcm.relevance.views`):
it needs no calibration between a BM25 score and a cosine, and a message
found by one order only still ranks. The query's
embedding is computed when asked (one short text, a few ms); the messages'
are computed in the background (:mod:`~hermes_engine_lcm.relevance.worker`),
and a message not embedded yet ranks by keywords alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from hermes_core import get_logger
from hermes_engine_lcm.store.protocol import Connection
from hermes_engine_lcm.store.search import ranked_messages

__all__ = [
    "KEYWORD_BEST",
    "MEANING_BEST",
    "RRF_K",
    "HybridRelevance",
    "KeywordRelevance",
    "Relevance",
    "fuse",
]

logger = get_logger("hermes_core.engines.lcm")

#: Reciprocal-rank fusion's constant (the value of the original paper, and common use).
RRF_K = 60


#: The best messages a request takes with their neighbours, by keywords: a keyword match
#: is often one side of an exchange (the question, or the reply), so its neighbours are
#: sent with it.
KEYWORD_BEST = 32
#: The same by meaning: fusion ranks both sides of a relevant exchange near the top by
#: themselves, and the room neighbours would take goes to more relevant turns (on the
#: development split, 32 -> 8 raised recall at B = 4,000 from 0.788 to 0.822 with one view;
#: with the context view 0 to 16 all score within 0.013; by keywords alone 8 lowered it at
#: 8,000 and 16,000, so keywords keep 32).
MEANING_BEST = 8


class Relevance(Protocol):
    """Ranks a session's stored messages for a query in natural language."""

    #: How many of the best messages a request takes with their neighbours.
    best: int

    def ranked(
        self, db: Connection, session_ids: Sequence[str], query: str, limit: int
    ) -> list[int]:
        """Ids of the most relevant messages, best first, at most ``limit`` (selection)."""
        ...

    def by_meaning(
        self, db: Connection, session_ids: Sequence[str] | None, query: str, limit: int
    ) -> list[list[int]]:
        """Orders of the messages closest in meaning, one per view of a message, each best
        first; [] when this relevance has no sense of meaning (``lcm_grep`` fuses them with
        its keyword hits)."""
        ...

    def stored_until(self, last_id: int | None) -> Relevance:
        """This relevance ranking by meaning only messages up to ``last_id`` (None: all):
        a request ranks what was stored before its own messages, whose vectors a worker may
        or may not have written yet, so that the same ask gets the same request."""
        ...


class KeywordRelevance:
    """Stemmed full-text relevance (FTS5's BM25 on SQLite, ts_rank on PostgreSQL)."""

    best = KEYWORD_BEST

    def ranked(
        self, db: Connection, session_ids: Sequence[str], query: str, limit: int
    ) -> list[int]:
        return ranked_messages(db, session_ids, query, limit)

    def by_meaning(
        self, db: Connection, session_ids: Sequence[str] | None, query: str, limit: int
    ) -> list[list[int]]:
        return []

    def stored_until(self, last_id: int | None) -> Relevance:
        return self  # the full-text index is written with the message: no race


def fuse(*orders: Sequence[int]) -> list[int]:
    """The ids of ``orders`` by reciprocal-rank fusion, best first (ties: first seen)."""
    score: dict[int, float] = {}
    for order in orders:
        for rank, item in enumerate(order):
            score[item] = score.get(item, 0.0) + 1.0 / (RRF_K + rank)
    return sorted(score, key=lambda item: -score[item])


class HybridRelevance:
    """Keyword relevance fused with cosine similarity of sentence embeddings.

    A query the model or the index fails on (whatever it raises, a tokenizer's
    panic included) ranks by keywords alone: ``lcm.embedding_query_failed`` is
    logged the first time, and the request or search goes on as it would
    without embeddings.
    """

    best = MEANING_BEST

    def __init__(self, keywords: Relevance, encoder: Any, index: Any) -> None:
        self.keywords = keywords
        self.encoder = encoder
        self.index = index
        self.failures = 0

    def ranked(
        self, db: Connection, session_ids: Sequence[str], query: str, limit: int
    ) -> list[int]:
        return self.ranked_until(db, session_ids, query, limit, None)

    def ranked_until(
        self,
        db: Connection,
        session_ids: Sequence[str],
        query: str,
        limit: int,
        last_id: int | None,
    ) -> list[int]:
        by_words = self.keywords.ranked(db, session_ids, query, limit)
        by_meaning = self.by_meaning(db, session_ids, query, limit, last_id)
        return fuse(by_words, *by_meaning)[:limit]

    def stored_until(self, last_id: int | None) -> Relevance:
        return self if last_id is None else _StoredUntil(self, last_id)

    def by_meaning(
        self,
        db: Connection,
        session_ids: Sequence[str] | None,
        query: str,
        limit: int,
        last_id: int | None = None,
    ) -> list[list[int]]:
        if not session_ids or not query.strip():  # every session's vectors: not kept
            return []
        try:
            # the encoder remembers recent texts: a retried request does not encode again
            vector = self.encoder.encode([query])[0]
            orders: list[list[int]] = self.index.ranked(db, session_ids, vector, limit, last_id)
        except (KeyboardInterrupt, SystemExit):
            raise
        except BaseException as exc:  # a panic in the tokenizer is no Exception
            self.failures += 1
            if self.failures == 1:
                logger.warning(
                    "lcm.embedding_query_failed",
                    error=f"{type(exc).__name__}: {str(exc)[:200]}",
                    using="keyword relevance for the queries that fail",
                )
            return []
        return orders


class _StoredUntil:
    """A :class:`HybridRelevance` that ranks by meaning the messages up to ``last_id``."""

    def __init__(self, parent: HybridRelevance, last_id: int) -> None:
        self.parent = parent
        self.last_id = last_id
        self.best = parent.best

    def ranked(
        self, db: Connection, session_ids: Sequence[str], query: str, limit: int
    ) -> list[int]:
        return self.parent.ranked_until(db, session_ids, query, limit, self.last_id)

    def by_meaning(
        self, db: Connection, session_ids: Sequence[str] | None, query: str, limit: int
    ) -> list[list[int]]:
        return self.parent.by_meaning(db, session_ids, query, limit, self.last_id)

    def stored_until(self, last_id: int | None) -> Relevance:
        return self.parent.stored_until(last_id)

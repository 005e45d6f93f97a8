"""The sessions' stored vectors in memory, for cosine similarity against a query.

Each stored row holds a message's vectors in its :data:`~hermes_engine_lcm.relevance.views.VIEWS`
views side by side; a query ranks the messages by each view. Vectors never
change once stored, so each session's matrix is read once and
then only extended by the rows stored since (by message id). A session's
matrix holds at most :data:`WINDOW` of its latest vectors: the cost of a query
stays bounded however long the conversation grows, as the keyword search's
window does. The matrices of all sessions together hold at most
:data:`KEPT_ROWS` rows (the least recently asked sessions are dropped first,
and read again when asked), so that many long sessions cost no more memory
than two.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

import numpy as np

from hermes_engine_lcm.relevance.views import VIEWS
from hermes_engine_lcm.store.connection import Connection
from hermes_engine_lcm.store.embeddings import vectors_after

__all__ = ["VectorIndex"]

#: Latest messages a session's matrix keeps (20,000 x 2 x 384 float32: about 60 MB).
WINDOW = 20_000
#: Rows a full buffer gains when it is copied, at least (or a quarter of what it holds).
SPARE = 1_024
#: Sessions whose matrices are kept, at most.
KEPT_SESSIONS = 16
#: Rows the kept matrices hold together, at most, spare room included (two sessions at
#: their window: about 150 MB for two views of 384 floats).
KEPT_ROWS = 2 * (WINDOW + WINDOW // 4)


class _Matrix:
    """A session's latest vectors in a buffer with room to grow: a new row is written in
    place, and the buffer is copied only when full (every :data:`SPARE` rows or more), not
    on each new message."""

    def __init__(self, width: int) -> None:
        self._ids = np.zeros(0, dtype=np.int64)
        self._vectors = np.zeros((0, width), dtype=np.float32)
        self._size = 0
        self.last = 0

    @property
    def held(self) -> int:
        """Rows of memory the buffer holds, spare room included."""
        return len(self._ids)

    @property
    def ids(self) -> Any:
        return self._ids[max(0, self._size - WINDOW) : self._size]

    @property
    def vectors(self) -> Any:
        return self._vectors[max(0, self._size - WINDOW) : self._size]

    def extend(self, ids: Any, vectors: Any) -> None:
        count = len(ids)
        if self._size + count > len(self._ids):
            live_ids = np.concatenate([self.ids, ids])[-WINDOW:]
            live = np.vstack([self.vectors, vectors])[-WINDOW:]
            capacity = len(live_ids) + max(SPARE, len(live_ids) // 4)
            self._ids = np.zeros(capacity, dtype=np.int64)
            self._vectors = np.zeros((capacity, live.shape[1]), dtype=np.float32)
            self._size = len(live_ids)
            self._ids[: self._size] = live_ids
            self._vectors[: self._size] = live
        else:
            self._ids[self._size : self._size + count] = ids
            self._vectors[self._size : self._size + count] = vectors
            self._size += count
        self.last = int(ids[-1])


class VectorIndex:
    """Cosine ranking over the stored vectors of ``model``; thread-safe."""

    def __init__(self, model: str, dimensions: int) -> None:
        self.model = model
        self.dimensions = dimensions
        self.width = VIEWS * dimensions
        self._sessions: OrderedDict[tuple[str, ...], _Matrix] = OrderedDict()
        self._lock = threading.Lock()

    def _matrix(self, db: Connection, session_ids: Sequence[str]) -> _Matrix:
        key = tuple(session_ids)
        with self._lock:
            matrix = self._sessions.get(key)
            if matrix is None:
                matrix = self._sessions[key] = _Matrix(self.width)
            self._sessions.move_to_end(key)
            rows = vectors_after(db, session_ids, self.model, matrix.last, WINDOW)
            if rows:
                ids = np.fromiter((i for i, _ in rows), dtype=np.int64, count=len(rows))
                new = np.frombuffer(b"".join(bytes(v) for _, v in rows), dtype=np.float32)
                matrix.extend(ids, new.reshape(len(rows), self.width))
            while len(self._sessions) > 1 and (
                len(self._sessions) > KEPT_SESSIONS or self.held_rows() > KEPT_ROWS
            ):
                self._sessions.popitem(last=False)  # the least recently asked, never this one
            return matrix

    def held_rows(self) -> int:
        """Rows of memory the kept matrices hold together (at most :data:`KEPT_ROWS`, or one
        session's when it alone holds more)."""
        return sum(matrix.held for matrix in self._sessions.values())

    def ranked(
        self, db: Connection, session_ids: Sequence[str], query: Any, limit: int
    ) -> list[list[int]]:
        """For each view, ids of the stored messages most similar to the unit vector
        ``query``, best first, at most ``limit``."""
        matrix = self._matrix(db, session_ids)
        if not len(matrix.ids) or limit <= 0:
            return []
        rows = matrix.vectors.reshape(len(matrix.ids) * VIEWS, self.dimensions)
        similarities = (rows @ np.asarray(query, dtype=np.float32)).reshape(-1, VIEWS).T
        return [self._best(matrix.ids, similarity, limit) for similarity in similarities]

    @staticmethod
    def _best(ids: Any, similarity: Any, limit: int) -> list[int]:
        if len(similarity) > limit:
            best = np.argpartition(-similarity, limit - 1)[:limit]
        else:
            best = np.arange(len(similarity))
        order = best[np.argsort(-similarity[best], kind="stable")]
        return [int(i) for i in ids[order]]

"""The sessions' stored vectors in memory, for cosine similarity against a query.

Each stored row holds a message's vectors in its :data:`~hermes_engine_lcm.relevance.views.VIEWS`
views side by side; a query ranks the messages by each view. Vectors never
change once stored, so each session's matrix is read once and
then only extended by the rows stored since (by message id). A session's
matrix holds at most :data:`WINDOW` of its latest vectors: the cost of a query
stays bounded however long the conversation grows, as the keyword search's
window does. The matrices of every index in the process together hold at
most :data:`KEPT_ROWS` rows (the least recently asked sessions are dropped
first, and read again when asked), so that many long sessions, and many
engines, cost no more memory than two long sessions. Indexes of one store and
model share their sessions' matrices.

The process-wide lock guards the kept matrices only: reading new rows from the
store happens outside it, so a slow read never holds up another session's
query. A stored row of another width than the model's (a row written by a
model of the same label but another width) is left out, never fed to the
matrix.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

import numpy as np

from hermes_engine_lcm.relevance.views import VIEWS
from hermes_engine_lcm.store.embeddings import vectors_after
from hermes_engine_lcm.store.protocol import Connection

__all__ = ["VectorIndex"]

#: Latest messages a session's matrix keeps (20,000 x 2 x 384 float32: about 60 MB).
WINDOW = 20_000
#: Rows a full buffer gains when it is copied, at least (or a quarter of what it holds).
SPARE = 1_024
#: Sessions whose matrices are kept in the process, at most.
KEPT_SESSIONS = 16
#: Rows the kept matrices of the process hold together, at most, spare room included (two
#: sessions at their window: about 150 MB for two views of 384 floats).
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


#: Every index's matrices: (store, model, sessions) -> matrix, least recently asked first.
_kept: OrderedDict[tuple[str, str, tuple[str, ...]], _Matrix] = OrderedDict()
_kept_lock = threading.Lock()


def held_rows() -> int:
    """Rows of memory the process's kept matrices hold together (at most :data:`KEPT_ROWS`,
    or one session's when it alone holds more)."""
    with _kept_lock:
        return sum(matrix.held for matrix in _kept.values())


class VectorIndex:
    """Cosine ranking over the stored vectors of ``model`` in ``store`` (where the store is:
    indexes of one store and model share the process's matrices); thread-safe."""

    def __init__(self, model: str, dimensions: int, store: str) -> None:
        self.model = model
        self.dimensions = dimensions
        self.width = VIEWS * dimensions
        self.store = store

    def _latest(self, db: Connection, session_ids: Sequence[str]) -> tuple[Any, Any]:
        """The sessions' latest ids and vectors, the matrix brought up to date first."""
        key = (self.store, self.model, tuple(session_ids))
        with _kept_lock:
            matrix = _kept.get(key)
            if matrix is None:
                matrix = _kept[key] = _Matrix(self.width)
            _kept.move_to_end(key)
            after = matrix.last
        rows = vectors_after(db, session_ids, self.model, after, WINDOW)  # the lock is free
        size = self.width * 4  # float32
        rows = [(i, v) for i, v in rows if len(v) == size]
        with _kept_lock:
            rows = [(i, v) for i, v in rows if i > matrix.last]  # another query went on meanwhile
            if rows:
                ids = np.fromiter((i for i, _ in rows), dtype=np.int64, count=len(rows))
                new = np.frombuffer(b"".join(bytes(v) for _, v in rows), dtype=np.float32)
                matrix.extend(ids, new.reshape(len(rows), self.width))
            while len(_kept) > 1 and (
                len(_kept) > KEPT_SESSIONS or sum(m.held for m in _kept.values()) > KEPT_ROWS
            ):
                _kept.popitem(last=False)  # the least recently asked, never this one
            return matrix.ids, matrix.vectors

    def ranked(
        self,
        db: Connection,
        session_ids: Sequence[str],
        query: Any,
        limit: int,
        last_id: int | None = None,
    ) -> list[list[int]]:
        """For each view, ids of the stored messages most similar to the unit vector
        ``query``, best first, at most ``limit``; with ``last_id``, of the messages up to it
        only."""
        ids, vectors = self._latest(db, session_ids)
        if last_id is not None and len(ids) and ids[-1] > last_id:
            kept = ids <= last_id  # ids ascend: the later ones are at the end
            ids, vectors = ids[kept], vectors[kept]
        if not len(ids) or limit <= 0:
            return []
        rows = vectors.reshape(len(ids) * VIEWS, self.dimensions)
        similarities = (rows @ np.asarray(query, dtype=np.float32)).reshape(-1, VIEWS).T
        return [self._best(ids, similarity, limit) for similarity in similarities]

    @staticmethod
    def _best(ids: Any, similarity: Any, limit: int) -> list[int]:
        if len(similarity) > limit:
            best = np.argpartition(-similarity, limit - 1)[:limit]
        else:
            best = np.arange(len(similarity))
        order = best[np.argsort(-similarity[best], kind="stable")]
        return [int(i) for i in ids[order]]

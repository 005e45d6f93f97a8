"""Embedding stored messages in the background, in batches, off the agent's path.

Ingest only wakes the worker; the worker walks the store by message id (each
pass from a little behind where the last stopped, :data:`LOOKBACK`),
encodes what has no vectors of the model yet (in batches of :data:`BATCH`; each
message in its two views, :mod:`~hermes_engine_lcm.relevance.views`), and
stores the vectors in write transactions of its own. Selection uses what
is there: a message not embedded yet still ranks by keywords. An engine
opened on an existing store embeds its history the same way, from the first
message. Failures are logged (``lcm.embedding_failed``) and retried on the
next wake-up; nothing of the store is changed by them.
"""

from __future__ import annotations

import threading
from typing import Any

from hermes_core import get_logger, redact
from hermes_engine_lcm.relevance.views import VIEWS, view_texts
from hermes_engine_lcm.store.embeddings import store_vectors, unembedded

__all__ = ["BATCH", "BackgroundEmbedder"]

logger = get_logger("hermes_core.engines.lcm")

#: Messages encoded and stored together.
BATCH = 64
#: Ids a pass looks back behind where the last one stopped: on PostgreSQL ids come from a
#: sequence, and a message whose transaction commits after a later id's (another session's
#: turn, written at the same moment) is found on the next pass, not skipped for good.
LOOKBACK = 1_024


class BackgroundEmbedder:
    """One daemon thread per engine that embeds what the store holds and has no vector."""

    def __init__(self, database: Any, encoder: Any, model: str) -> None:
        self.database = database
        self.encoder = encoder
        self.model = model
        self.embedded = 0
        self._after = 0
        self._wake = threading.Condition()
        self._pending = True  # an existing store may hold unembedded history
        self._idle = threading.Event()
        self._closed = False
        self._thread = threading.Thread(target=self._run, name="lcm-embeddings", daemon=True)
        self._thread.start()

    def wake(self) -> None:
        """New messages were stored."""
        with self._wake:
            self._pending = True
            self._idle.clear()
            self._wake.notify()

    def flush(self, timeout: float | None = None) -> bool:
        """Wait until every stored message has its vector (or ``timeout``); True when so."""
        self.wake()
        return self._idle.wait(timeout)

    def close(self) -> None:
        """Stop after the batch in hand; what is left is embedded by the next engine."""
        with self._wake:
            self._closed = True
            self._wake.notify()
        self._thread.join(timeout=30)

    def _run(self) -> None:
        while True:
            with self._wake:
                while not self._pending and not self._closed:
                    self._idle.set()
                    self._wake.wait()
                if self._closed:
                    self._idle.set()
                    return
                self._pending = False
            self._after = max(0, self._after - LOOKBACK)
            try:
                while not self._closed and self._batch():
                    pass
            except Exception as exc:  # a store or model failure: logged, retried on a wake
                # a driver's text may name the server; never its password
                logger.warning("lcm.embedding_failed", model=self.model, error=redact(str(exc)))

    def _batch(self) -> bool:
        """Embed one batch; False when nothing was left."""
        with self.database.read() as db:
            rows = unembedded(db, self.model, self._after, BATCH)
        if not rows:
            return False
        texts = [view for _, _, text, previous in rows for view in view_texts(text, previous)]
        vectors = self.encoder.encode(texts).reshape(len(rows), -1)  # the views side by side
        assert vectors.shape[1] == VIEWS * self.encoder.dimensions
        by_session: dict[str, list[tuple[int, str, bytes]]] = {}
        for (message_id, session, _, _), vector in zip(rows, vectors, strict=True):
            by_session.setdefault(session, []).append((message_id, session, vector.tobytes()))
        for session, stored in by_session.items():
            with self.database.write(session) as db:
                store_vectors(db, self.model, stored)
        self._after = rows[-1][0]
        self.embedded += len(rows)
        return True

"""Embedding stored messages in the background, in batches, off the agent's path.

Ingest only wakes the worker; the worker walks the store by message id (each
pass from a little behind where the last stopped, :data:`LOOKBACK`),
encodes what has no vectors of the model yet (in batches of :data:`BATCH`; each
message in its two views, :mod:`~hermes_engine_lcm.relevance.views`), and
stores the vectors in write transactions of its own, one per session. Selection
uses what is there: a message not embedded yet still ranks by keywords. An
engine opened on an existing store embeds its history the same way, from the
first message.

Failures stay where they happen:

* a batch the model fails on (whatever it raises, a tokenizer's panic
  included) is encoded message by message, and a message that fails alone
  while others of its batch encode is stored with an empty vector, so it is
  never tried again (it ranks by keywords, like a message of a store without
  embeddings); a model that fails on every message of a batch fails the pass;
* a session whose write fails (someone holds it locked) is left for the
  next pass, and the other sessions of the batch are stored;
* anything else is logged (``lcm.embedding_failed``) and retried on the next
  wake-up; the worker never dies of it.

:meth:`BackgroundEmbedder.close` waits for a write in progress only, never
for an encoding: what was being encoded is dropped, and embedded by the next
engine.
"""

from __future__ import annotations

import os
import threading
import time
import weakref
from typing import Any

from hermes_core import get_logger
from hermes_engine_lcm.relevance import native
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


#: Every worker of the process: a forked child starts each open one again.
_workers: weakref.WeakSet[BackgroundEmbedder] = weakref.WeakSet()


def _after_fork_in_child() -> None:
    for worker in list(_workers):
        if not worker._closed:
            worker._start()


os.register_at_fork(after_in_child=_after_fork_in_child)


def _interrupt(exc: BaseException) -> bool:
    return isinstance(exc, (KeyboardInterrupt, SystemExit))


class BackgroundEmbedder:
    """One daemon thread per engine that embeds what the store holds and has no vector."""

    def __init__(self, database: Any, encoder: Any, model: str) -> None:
        self.database = database
        self.encoder = encoder
        self.model = model
        self.embedded = 0
        #: Seconds spent encoding and storing, for the rate the status shows.
        self.busy_seconds = 0.0
        #: Messages the model failed on alone, stored with an empty vector.
        self.unembeddable = 0
        self._after = 0
        #: The lowest id of a session left for the next pass (its write failed), or None.
        self._retry_from: int | None = None
        self._complete = False  # the last pass left nothing behind
        self._closed = False
        self._start()
        _workers.add(self)

    def _start(self) -> None:
        """A new thread, and new locks (a forked child has neither the parent's thread nor
        whatever it held)."""
        self._wake = threading.Condition()
        self._pending = True  # an existing store may hold unembedded history
        self._idle = threading.Event()
        self._writing = threading.Lock()  # close() waits for a write, never for an encoding
        self._thread = threading.Thread(target=self._run, name="lcm-embeddings", daemon=True)
        self._thread.start()

    def wake(self) -> None:
        """New messages were stored."""
        with self._wake:
            self._pending = True
            self._idle.clear()
            self._wake.notify()

    def flush(self, timeout: float | None = None) -> bool:
        """Wait until the worker has been through every stored message (or ``timeout``);
        True when it was and left nothing behind (a failed pass, a session it could not
        write, say False)."""
        self.wake()
        return self._idle.wait(timeout) and self._complete

    def close(self) -> None:
        """Stop: a write in progress ends first; an encoding in progress is dropped and its
        messages are embedded by the next engine. Nothing is written after this returns."""
        with self._writing, self._wake:
            self._closed = True
            self._wake.notify()

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
            if self._retry_from is not None:
                self._after = min(self._after, self._retry_from - 1)
                self._retry_from = None
            self._complete = False
            try:
                while not self._closed and self._batch():
                    pass
            except BaseException as exc:  # the worker must outlive any failure
                if _interrupt(exc):
                    raise
                if isinstance(exc, native.ProcessExiting):
                    self._idle.set()
                    return  # the interpreter is exiting: the next process embeds the rest
                # a driver's text may name the server; events are redacted on the way out
                logger.warning(
                    "lcm.embedding_failed", model=self.model, error=f"{type(exc).__name__}: {exc}"
                )
            else:
                self._complete = self._retry_from is None

    def _batch(self) -> bool:
        """Embed one batch; False when nothing was left."""
        with self._writing:  # a closed engine's store is never opened again from here
            if self._closed:
                return False
            with self.database.read() as db:
                rows = unembedded(db, self.model, self._after, BATCH)
        if not rows:
            return False
        started = time.monotonic()
        vectors = self._encode(rows)
        by_session: dict[str, list[tuple[int, str, bytes]]] = {}
        for (message_id, session, _, _), vector in zip(rows, vectors, strict=True):
            by_session.setdefault(session, []).append((message_id, session, vector))
        for session, stored in by_session.items():
            self._store(session, stored)
        self._after = rows[-1][0]
        self.busy_seconds += time.monotonic() - started
        return True

    def rate(self) -> float | None:
        """Messages embedded per second of work so far (None before the first batch)."""
        return self.embedded / self.busy_seconds if self.embedded and self.busy_seconds else None

    def _encode(self, rows: list[tuple[int, str, str, str]]) -> list[bytes]:
        """Each message's views side by side, as bytes; b"" for a message the model fails
        on alone."""
        try:
            return [vector.tobytes() for vector in self._views(rows)]
        except BaseException as exc:  # a panic in the tokenizer is no Exception
            if _interrupt(exc) or len(rows) == 1 or isinstance(exc, native.ProcessExiting):
                raise
        out: list[bytes] = []
        failed: list[tuple[int, BaseException]] = []
        for row in rows:  # one poisoned message must not keep the batch from its vectors
            try:
                (vector,) = self._views([row])
                out.append(vector.tobytes())
            except BaseException as error:
                if _interrupt(error) or isinstance(error, native.ProcessExiting):
                    raise
                failed.append((row[0], error))
                out.append(b"")
        if len(failed) == len(rows):  # the model fails on everything: a failure, not poison
            raise failed[-1][1]
        for message_id, failure in failed:
            logger.warning(
                "lcm.embedding_skipped",
                model=self.model,
                message_id=message_id,
                error=f"{type(failure).__name__}: {str(failure)[:200]}",
                using="keyword relevance for this message",
            )
        self.unembeddable += len(failed)
        return out

    def _views(self, rows: list[tuple[int, str, str, str]]) -> Any:
        texts = [view for _, _, text, previous in rows for view in view_texts(text, previous)]
        vectors = self.encoder.encode(texts).reshape(len(rows), -1)  # the views side by side
        assert vectors.shape[1] == VIEWS * self.encoder.dimensions
        return vectors

    def _store(self, session: str, stored: list[tuple[int, str, bytes]]) -> None:
        """Write one session's vectors; a session that cannot be written now (locked by
        another writer, say) is left for the next pass."""
        with self._writing:
            if self._closed:
                return
            try:
                with self.database.write(session) as db:
                    store_vectors(db, self.model, stored)
            except Exception as exc:  # the other sessions still get theirs
                first = stored[0][0]
                self._retry_from = (
                    first if self._retry_from is None else min(self._retry_from, first)
                )
                logger.warning(
                    "lcm.embedding_deferred",
                    model=self.model,
                    messages=len(stored),
                    error=f"{type(exc).__name__}: {str(exc)[:200]}",
                )
                return
        self.embedded += sum(1 for _, _, vector in stored if vector)

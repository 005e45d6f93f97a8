"""How far the store's embedding is, for ``hermes-context lcm status``: the messages stored,
those with vectors of the model, the backlog, and the time the backlog takes at the rate
this machine encodes, measured on a sample of the backlog itself (nothing is stored)."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from hermes_engine_lcm.relevance.views import label, view_texts
from hermes_engine_lcm.store.embeddings import unembedded, vector_count

__all__ = ["SAMPLE", "EmbeddingProgress", "embeddings_status", "progress"]

#: Messages of the backlog encoded to measure the rate (a batch of the worker's).
SAMPLE = 64


@dataclass(frozen=True)
class EmbeddingProgress:
    """The store's embedding, as the status shows it."""

    messages: int
    vectors: int
    per_second: float | None

    @property
    def backlog(self) -> int:
        return max(0, self.messages - self.vectors)

    @property
    def seconds_left(self) -> float | None:
        if not self.backlog:
            return 0.0
        return self.backlog / self.per_second if self.per_second else None

    def as_dict(self) -> dict[str, Any]:
        """For ``get_status()``: the counts, the rate and the time left (None: unknown)."""
        left = self.seconds_left
        return {
            "messages": self.messages,
            "vectors": self.vectors,
            "backlog": self.backlog,
            "per_second": round(self.per_second, 1) if self.per_second else None,
            "seconds_left": round(left, 1) if left is not None else None,
        }


def progress(database: Any, encoder: Any, clock: Any = time.perf_counter) -> EmbeddingProgress:
    """The progress of ``encoder``'s vectors in ``database``; the rate is measured by
    encoding up to :data:`SAMPLE` messages of the backlog in both views (None when there is
    no backlog to measure on)."""
    model = label(encoder.fingerprint)
    with database.read() as db:
        stored, tried = vector_count(db, model)
        sample = unembedded(db, model, 0, SAMPLE) if stored > tried else []
    rate = None
    if sample:
        texts = [view for _, _, text, previous in sample for view in view_texts(text, previous)]
        started = clock()
        encoder.encode(texts)
        rate = len(sample) / max(clock() - started, 1e-9)
    return EmbeddingProgress(stored, tried, rate)


def embeddings_status(
    database: Any, model: str | None, why: str | None, embedder: Any
) -> dict[str, Any]:
    """Relevance by meaning, for an engine's status: which ``model`` and ``why`` (or why
    none); with a running ``embedder``, the store's messages and how many have their
    vectors, the backlog, the worker's rate and the time it needs for the backlog at that
    rate (None until it has a rate)."""
    shown: dict[str, Any] = {"model": model, "why": why}
    if embedder is None:
        return shown
    with database.read() as db:
        stored, tried = vector_count(db, embedder.model)
    return shown | EmbeddingProgress(stored, tried, embedder.rate()).as_dict()

"""Summaries prepared ahead: the summary of a pass's middle, made in the background before
the pass needs it, and kept with the fingerprint of the messages it summarises.

A pass uses a prepared summary only when its own middle starts where the prepared one
started and begins with exactly the messages it was made from (compared by
fingerprint): it then keeps the messages that came after them as they are. Anything
else (another head, an edited message, a summary made for another focus) is never
used: the pass summarises as it would have.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

__all__ = ["PreparedSummaries", "PreparedSummary", "fingerprint"]


def fingerprint(messages: Sequence[Any]) -> str:
    """A digest of ``messages`` as they are: equal exactly when they are equal."""
    text = json.dumps(list(messages), sort_keys=True, ensure_ascii=False, default=repr)
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


@dataclass(frozen=True)
class PreparedSummary:
    """The summary of the ``count`` messages of a middle that started at index ``head``."""

    head: int
    count: int
    fingerprint: str
    summary: str


class PreparedSummaries:
    """Per session, the last summary prepared and whether one is being prepared; and how
    passes fared: ``used`` (applied a prepared summary), ``not_ready`` (none matched)."""

    def __init__(self) -> None:
        self._ready: dict[str, PreparedSummary] = {}
        #: Per session, how many passes ran: a preparation started before a pass is stale
        #: when it ends after it.
        self._passes: dict[str, int] = {}
        self._preparing: set[str] = set()
        self._lock = threading.Lock()
        self.used = 0
        self.not_ready = 0

    @contextmanager
    def preparing(self, session: str) -> Iterator[None]:
        """Marks ``session`` as being prepared for while the block runs."""
        with self._lock:
            self._preparing.add(session)
        try:
            yield
        finally:
            with self._lock:
                self._preparing.discard(session)

    def generation(self, session: str) -> int:
        """How many times ``session``'s conversation was compacted or reset: what a
        preparation started at one generation is worth nothing at another."""
        with self._lock:
            return self._passes.get(session, 0)

    def put(self, session: str, prepared: PreparedSummary, generation: int) -> None:
        """Keep ``prepared``, unless a pass ran since its preparation started."""
        with self._lock:
            if self._passes.get(session, 0) == generation:
                self._ready[session] = prepared

    def drop(self, session: str) -> None:
        """``session``'s conversation was compacted (or reset): what was prepared is stale,
        and so is what is being prepared."""
        with self._lock:
            self._ready.pop(session, None)
            self._passes[session] = self._passes.get(session, 0) + 1

    def covering(self, session: str, head: int, middle: Sequence[Any]) -> PreparedSummary | None:
        """The prepared summary of a start of ``middle`` (whose first message is at index
        ``head``), or None."""
        with self._lock:
            ready = self._ready.get(session)
        if ready is None or ready.head != head or ready.count > len(middle):
            return None
        return ready if fingerprint(middle[: ready.count]) == ready.fingerprint else None

    def state(self, session: str) -> str | None:
        """``"preparing"``, ``"ready"``, or None when nothing is prepared or preparing."""
        with self._lock:
            if session in self._preparing:
                return "preparing"
            return "ready" if session in self._ready else None

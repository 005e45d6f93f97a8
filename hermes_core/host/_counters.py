"""What the host counts about its engine, for ``ContextHost.status()``."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field, fields

__all__ = ["HostCounters"]


@dataclass
class HostCounters:
    """Event counts since the host was built; increments are thread-safe."""

    passes: int = 0
    passes_compressed: int = 0
    passes_no_gain: int = 0
    pass_failures: int = 0
    pass_timeouts: int = 0
    pass_invalid_results: int = 0
    pass_busy: int = 0
    pass_pool_exhausted: int = 0
    #: Backoffs started by passes that did not help, and the passes they held.
    passes_backed_off: int = 0
    passes_held: int = 0
    #: Preparations of a next pass's summaries started in the background, those that
    #: ended, and those that raised.
    preparations_started: int = 0
    preparations_done: int = 0
    preparation_failures: int = 0
    select_context_fallbacks: int = 0
    #: Prunes of old tool results the host accepted, and those it refused or that failed.
    prunes: int = 0
    prune_fallbacks: int = 0
    hook_failures: int = 0
    hook_timeouts: int = 0
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)

    @property
    def failed_passes(self) -> int:
        """Passes that failed: the engine raised, ran out of time, or returned no messages."""
        with self._lock:
            return self.pass_failures + self.pass_timeouts + self.pass_invalid_results

    def add(self, name: str, amount: int = 1) -> None:
        """Increase counter ``name`` by ``amount``."""
        with self._lock:
            setattr(self, name, getattr(self, name) + amount)

    def as_dict(self) -> dict[str, int]:
        """The counters as a plain dict."""
        with self._lock:
            return {f.name: getattr(self, f.name) for f in fields(self) if f.name != "_lock"}

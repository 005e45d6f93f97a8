"""How long to leave a failing auxiliary LLM alone: one policy for every engine.

After a failure the engine waits 60 s, then 300 s, then 900 s for each
further failure, and summarises without the LLM meanwhile (a deterministic
summary), so a server answering 401 costs one request, not one per summary.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable

__all__ = ["COOLDOWN_STEPS", "FailureCooldown"]

#: Seconds of the first, second and every further cooldown in a row.
COOLDOWN_STEPS = (60.0, 300.0, 900.0)


class FailureCooldown:
    """After an LLM failure, wait 60 s, then 300 s, then 900 s for each further failure.

    A success resets the escalation. Thread-safe: one instance may serve the
    passes of several sessions.
    """

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._failures = 0
        self._until = 0.0
        self._lock = threading.Lock()

    def failed(self) -> float:
        """Record a failure; returns the cooldown it starts, in seconds."""
        with self._lock:
            seconds = COOLDOWN_STEPS[min(self._failures, len(COOLDOWN_STEPS) - 1)]
            self._failures += 1
            self._until = self._clock() + seconds
            return seconds

    def succeeded(self) -> None:
        """Record a success: no cooldown, and the next failure starts at 60 s again."""
        with self._lock:
            self._failures = 0
            self._until = 0.0

    def remaining(self) -> int:
        """Whole seconds left of the current cooldown (0 when there is none)."""
        left = self._until - self._clock()
        return math.ceil(left) if left > 0 else 0

"""When compression must wait: failure cooldowns and the anti-thrash breaker."""

from __future__ import annotations

import math
import time
from collections.abc import Callable

__all__ = ["FailureCooldown", "ThrashBreaker"]

COOLDOWN_STEPS = (60.0, 300.0, 900.0)


class FailureCooldown:
    """After a summariser failure, wait 60 s, then 300 s, then 900 s for each further failure.

    A success resets the escalation.
    """

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._failures = 0
        self._until = 0.0

    def failed(self) -> float:
        """Record a failure; returns the cooldown it starts, in seconds."""
        seconds = COOLDOWN_STEPS[min(self._failures, len(COOLDOWN_STEPS) - 1)]
        self._failures += 1
        self._until = self._clock() + seconds
        return seconds

    def succeeded(self) -> None:
        """Record a success: no cooldown, and the next failure starts at 60 s again."""
        self._failures = 0
        self._until = 0.0

    def remaining(self) -> int:
        """Whole seconds left of the current cooldown (0 when there is none)."""
        left = self._until - self._clock()
        return math.ceil(left) if left > 0 else 0


class ThrashBreaker:
    """Reports compression as ineffective when real usage stays over the threshold.

    After each pass the next real usage is checked: over the threshold twice
    in a row trips the breaker; usage below the threshold resets it, so it
    never latches off for good.
    """

    def __init__(self, limit: int = 2) -> None:
        self._limit = limit
        self._awaiting = False
        self._streak = 0

    def pass_ran(self) -> None:
        """A compression pass produced a shorter context; judge the next usage."""
        self._awaiting = True

    def usage(self, prompt_tokens: int, threshold_tokens: int) -> None:
        """Real usage arrived from the provider."""
        over = threshold_tokens > 0 and prompt_tokens >= threshold_tokens
        if not over:
            self._streak = 0
        elif self._awaiting:
            self._streak += 1
        self._awaiting = False

    @property
    def tripped(self) -> bool:
        """True while compression should be reported ``ineffective``."""
        return self._streak >= self._limit

    def reset(self) -> None:
        """Forget everything (a new session)."""
        self._awaiting = False
        self._streak = 0

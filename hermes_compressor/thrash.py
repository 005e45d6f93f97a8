"""The anti-thrash breaker: when compaction stops helping, say so instead of repeating it."""

from __future__ import annotations

__all__ = ["ThrashBreaker"]


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

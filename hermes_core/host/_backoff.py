"""Passes that stop helping are backed off, whatever the engine: no loop of passes.

After each pass the host judges it: a pass that freed less than
``compression.min_freed_share`` of the prompt (nothing, or a prompt that grew), or
that came fewer than ``compression.min_turns_between_passes`` responses after the
one before, starts a backoff: for the next 2, then 4, 8, ... responses (at most
:data:`LONGEST`) ``should_compress`` says no, however often the engine says yes. A
pass that helps ends the backoff and its doubling. A prompt that leaves no room for
the reply (the model's window less the reply's reserve) is held only after passes that
freed too little: a pass that frees plenty but comes often is what a fast-growing
conversation needs there, while one more pass of an engine that frees nothing would
free nothing again (it is retried as the backoff ends, 64 responses apart at most).

Each backoff is logged (``context_engine.passes_backed_off``, with its reason and
length) and counted (``passes_backed_off``; the passes it held are
``passes_held``); ``status()`` says how many responses are left of it.
"""

from __future__ import annotations

import threading

__all__ = ["LONGEST", "PassBackoff"]

#: The most responses one backoff lasts.
LONGEST = 64


class PassBackoff:
    """Judges each pass and holds the next ones while they do not help (see the module)."""

    def __init__(self, min_freed_share: float, min_turns_between: int) -> None:
        self.min_freed_share = min_freed_share
        self.min_turns_between = min_turns_between
        self._lock = threading.Lock()
        self._responses = 0
        self._last_pass: int | None = None
        self._until = 0
        self._streak = 0
        #: Why the last backoff started (None before any).
        self.reason: str | None = None

    def response(self) -> None:
        """A provider response arrived (``record_usage``): one turn of the backoff passes."""
        self._responses += 1

    @property
    def holding(self) -> bool:
        """Whether a backoff is running now."""
        return self._responses < self._until

    def holds(self, at_window: bool) -> bool:
        """Whether a pass asked for now is held (``at_window``: the prompt leaves the reply
        no room)."""
        if not self.holding:
            return False
        return not at_window or self.reason == "freed_too_little"

    @property
    def responses_left(self) -> int:
        """How many responses are left of the backoff (0: none)."""
        return max(0, self._until - self._responses)

    def judge(self, before_tokens: int, after_tokens: int) -> tuple[str, int] | None:
        """Judge a pass that ran over ``before_tokens`` and left ``after_tokens`` (0 and 0 for
        a pass that failed: it freed nothing): the reason and length of the backoff it
        starts, or None when it helped."""
        with self._lock:
            since = None if self._last_pass is None else self._responses - self._last_pass
            self._last_pass = self._responses
            freed = (before_tokens - after_tokens) / before_tokens if before_tokens > 0 else 0.0
            if freed < self.min_freed_share:
                reason = "freed_too_little"
            elif since is not None and since < self.min_turns_between:
                reason = "too_soon"
            else:
                self._streak = 0
                self._until = 0
                return None
            self._streak += 1
            self.reason = reason
            length = min(2**self._streak, LONGEST)
            self._until = self._responses + length
            return reason, length

    def reset(self) -> None:
        """A new conversation: no backoff, no pass before."""
        with self._lock:
            self._last_pass = None
            self._until = 0
            self._streak = 0

"""Failing fast on a PostgreSQL server that is down.

Without it, every call waited for the pool's timeout while the server was
down (30 s each), and the first call after a restart waited out the pool's
reconnection backoff. A :class:`Breaker` opens when a connection fails: from
then on calls fail at once with :class:`StoreUnavailable`, until a retry time,
when one call tries a fresh connection (``connect_timeout`` bounds it); the
waits double from ``first_wait`` up to ``longest_wait`` while the server stays
down, and the breaker closes at the first connection that works.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from hermes_core import get_logger
from hermes_engine_lcm.errors import StoreUnavailable

__all__ = ["Breaker", "StoreUnavailable"]

logger = get_logger("hermes_core.engines.lcm")


class Breaker:
    """Open after a failed connection; retried at growing intervals; closed by a success.

    Thread-safe. ``probe()`` must raise when the server cannot be reached.
    """

    def __init__(
        self,
        where: str,
        probe: Callable[[], None],
        first_wait: float = 1.0,
        longest_wait: float = 30.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._where = where
        self._probe = probe
        self._first = first_wait
        self._longest = longest_wait
        self._clock = clock
        self._lock = threading.Lock()
        self._retry_at: float | None = None  # None: closed
        self._wait = first_wait
        self._since = 0.0
        self._reason = ""

    @property
    def is_open(self) -> bool:
        """Whether calls fail at once now."""
        return self._retry_at is not None

    def check(self) -> bool:
        """Before a call: raises :class:`StoreUnavailable` while open; at a retry time tries
        the server and returns True when it came back (the caller should renew its pool)."""
        with self._lock:
            if self._retry_at is None:
                return False
            now = self._clock()
            if now < self._retry_at:
                raise self._unavailable(now)
            self._retry_at = now + self._wait  # other callers keep failing during the probe
        try:
            self._probe()
        except Exception as exc:
            self.trip(f"{type(exc).__name__}")
            with self._lock:
                raise self._unavailable(self._clock()) from None
        with self._lock:
            self._retry_at = None
            self._wait = self._first
        logger.warning(
            "lcm.store_back", database=self._where, down_seconds=round(now - self._since, 1)
        )
        return True

    def trip(self, reason: str) -> None:
        """A connection failed: open (or stay open, waiting longer before the next try)."""
        with self._lock:
            now = self._clock()
            if self._retry_at is None:
                self._since = now
                self._wait = self._first
                logger.warning("lcm.store_down", database=self._where, reason=reason)
            else:
                self._wait = min(self._longest, self._wait * 2)
            self._reason = reason
            self._retry_at = now + self._wait

    def _unavailable(self, now: float) -> StoreUnavailable:
        assert self._retry_at is not None
        return StoreUnavailable(
            f"lcm: the PostgreSQL store at {self._where} is unreachable "
            f"({self._reason}, for {now - self._since:.0f} s); the next try is in "
            f"{max(0.0, self._retry_at - now):.0f} s: check that the server is up"
        )

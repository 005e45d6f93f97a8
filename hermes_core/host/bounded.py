"""Engine calls bounded in time: run on the pool, given up after a limit, never raising.

Every engine hook that may do work or I/O (all but the per-response
accessors) goes through :class:`BoundedCalls`: with a limit above 0 the call
runs on the host's daemon pool and the caller waits at most that long; a
call that is late, or fails, gives the caller the default the host would
have used with no engine. A late call's worker is abandoned (and may be
replaced), its result dropped.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import TimeoutError as FutureTimeout
from typing import Any, TypeVar

from hermes_core.containment import reraise_user_interrupt
from hermes_core.host.pool import DaemonPool

__all__ = ["BoundedCalls"]

T = TypeVar("T")


class BoundedCalls:
    """Calls engine hooks within ``limit`` seconds (0: inline, unbounded).

    ``failed(method, exc)`` and ``late(method, limit)`` are told what went
    wrong; the call then returns its default.
    """

    def __init__(
        self,
        pool: DaemonPool,
        limit: float,
        failed: Callable[[str, BaseException], None],
        late: Callable[[str, float], None],
    ) -> None:
        self.pool = pool
        self.limit = limit
        self._failed = failed
        self._late = late

    def __call__(
        self, method: str, function: Callable[..., T], default: T, *args: Any, **kwargs: Any
    ) -> T:
        """``function(*args, **kwargs)``, or ``default`` when it raises or is late."""
        if self.limit <= 0:
            try:
                return function(*args, **kwargs)
            except BaseException as exc:
                reraise_user_interrupt(exc)
                self._failed(method, exc)
                return default
        future = self.pool.submit(lambda: function(*args, **kwargs))
        try:
            return future.result(timeout=self.limit)
        except FutureTimeout:
            if not future.cancel():
                self.pool.abandon(future)
            self._late(method, self.limit)
            return default
        except BaseException as exc:
            raised_by_engine = (
                future.done() and not future.cancelled() and (future.exception(timeout=0) is exc)
            )
            if not raised_by_engine:  # the caller's own wait was interrupted: Ctrl-C
                raise
            self._failed(method, exc)
            return default

"""Engine calls bounded in time, and engine calls contained: the one place both are done.

:func:`run_bounded` runs a call on the host's daemon pool and waits at most
its limit; what happened comes back as a :class:`Done` (the value), a
:class:`Raised` (what the engine raised), :data:`LATE` (the call ran past its
limit; its worker is abandoned, its result dropped) or :data:`NEVER_STARTED`
(no worker took it in time). It never raises, but for one case: the user's
Ctrl-C, which reaches the user wherever the agent's thread is waiting
(see :mod:`hermes_core._containment`).

:class:`BoundedCalls` is what the host calls every hook that may do work
through, and :func:`contained` what it calls the inline ones through: both
give the caller the default the host would have used with no engine when the
engine fails or is late. Compression passes (:mod:`.passes`) use
:func:`run_bounded` too.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from hermes_core._containment import reraise_user_interrupt
from hermes_core.host._pool import DaemonPool

__all__ = [
    "LATE",
    "NEVER_STARTED",
    "BoundedCalls",
    "Done",
    "Raised",
    "contained",
    "run_bounded",
]

T = TypeVar("T")


@dataclass(frozen=True)
class Done(Generic[T]):
    """The call returned ``value`` within its limit."""

    value: T


@dataclass(frozen=True)
class Raised:
    """The engine's code raised ``error`` (anything but the user's Ctrl-C)."""

    error: BaseException


class _Outcome:
    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return self.name


#: The call was still running at its limit: its worker is abandoned, its result dropped.
LATE = _Outcome("LATE")
#: No worker took the call before its limit (every one busy): it never ran, and never will.
NEVER_STARTED = _Outcome("NEVER_STARTED")

Outcome = Done[Any] | Raised | _Outcome


def _inline(function: Callable[[], T]) -> Done[T] | Raised:
    try:
        return Done(function())
    except BaseException as exc:
        reraise_user_interrupt(exc)
        return Raised(exc)


def run_bounded(pool: DaemonPool, limit: float, function: Callable[[], T]) -> Outcome:
    """``function()`` on ``pool``, waited for at most ``limit`` seconds (``limit <= 0``:
    inline, unbounded); see the module docstring for what comes back."""
    if limit <= 0:
        return _inline(function)
    future: Future[T] = pool.submit(function)
    try:
        return Done(future.result(timeout=limit))
    except FutureTimeout:
        if future.cancel():
            return NEVER_STARTED
        pool.abandon(future)
        return LATE
    except BaseException as exc:
        raised_by_engine = (
            future.done() and not future.cancelled() and future.exception(timeout=0) is exc
        )
        if not raised_by_engine:  # the caller's own wait was interrupted: the user's Ctrl-C
            if not future.cancel():
                pool.abandon(future)
            raise
        return Raised(exc)


def contained(
    method: str,
    function: Callable[[], T],
    default: T,
    failed: Callable[[str, BaseException], None],
) -> T:
    """``function()`` inline: its value, or ``default`` once ``failed(method, exc)`` was told
    what it raised (the user's Ctrl-C goes on to the user)."""
    outcome = _inline(function)
    if isinstance(outcome, Done):
        return outcome.value
    failed(method, outcome.error)
    return default


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
        outcome = run_bounded(self.pool, self.limit, lambda: function(*args, **kwargs))
        if isinstance(outcome, Done):
            value: T = outcome.value
            return value
        if isinstance(outcome, Raised):
            self._failed(method, outcome.error)
        else:
            self._late(method, self.limit)
        return default

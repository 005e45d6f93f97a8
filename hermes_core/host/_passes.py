"""One compression pass: a private snapshot, a bounded run, a checked result.

Rules (see ``ContextHost.compress``): the engine works on a deep copy; with a
timeout the pass runs on the host's daemon pool and, when the timeout
passes, the original messages are kept and whatever the engine returns later
is dropped; one pass per session at a time; a result that is not a valid
message sequence is discarded, except one whose only faults are orphaned tool
results or unanswered tool calls: that one is repaired and accepted; a
result that is not smaller than its input (the host's estimate) is dropped
as ``no_gain``.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from hermes_core._containment import reraise_user_interrupt
from hermes_core._tokens import estimate_tokens
from hermes_core.host._bounded import LATE, NEVER_STARTED, Done, Raised, run_bounded
from hermes_core.host._discards import discarded
from hermes_core.host._pool import DaemonPool
from hermes_core.messages import sanitize_tool_pairs, validate_messages
from hermes_core.messages._copying import copy_messages

__all__ = ["PassOutcome", "PassRunner"]

Outcome = Literal["compressed", "error", "timeout", "invalid", "busy", "pool_exhausted", "no_gain"]


@dataclass(frozen=True)
class PassOutcome:
    """What a pass produced: the engine's list if outcome is compressed, else the original."""

    messages: list[Any]
    outcome: Outcome
    seconds: float
    detail: str = ""
    #: Messages dropped to repair tool pairs in the engine's result (0: none needed).
    repaired: int = 0
    #: The host's estimates of the input and the result (0 when not measured).
    before_tokens: int = 0
    after_tokens: int = 0
    #: What the engine raised (outcome ``error``), for its author's traceback.
    error: BaseException | None = field(default=None, compare=False, repr=False)


class PassRunner:
    """Runs compression passes for one engine, one pass per session at a time."""

    def __init__(
        self,
        compress: Callable[..., Any],
        pool: DaemonPool,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        """``clock`` measures the time a pass has taken, waiting for the session's previous
        pass included (tests pass one they move by hand)."""
        self._compress = compress
        self._pool = pool
        self._clock = clock
        #: Per session; None is the unnamed session of a host before any start_session.
        self._locks: dict[str | None, threading.Lock] = {}
        self._locks_guard = threading.Lock()

    def _lock_for(self, session_id: str | None) -> threading.Lock:
        with self._locks_guard:
            lock = self._locks.get(session_id)
            if lock is None:
                lock = self._locks[session_id] = threading.Lock()
            return lock

    def forget(self, session_id: str | None) -> None:
        """Drop the session's lock unless a pass holds it (the session ended)."""
        with self._locks_guard:
            lock = self._locks.get(session_id)
            if lock is not None and not lock.locked():
                del self._locks[session_id]

    def run(
        self,
        session_id: str | None,
        messages: list[Any],
        keywords: dict[str, Any],
        timeout: float,
    ) -> PassOutcome:
        """Run one pass over ``messages`` with the engine keywords given; never raises but
        for the user's Ctrl-C.

        With ``timeout > 0`` the caller waits at most ``timeout`` seconds in all:
        waiting for the session's previous pass counts against it.
        """
        start = self._clock()
        try:
            snapshot = copy_messages(messages)
        except BaseException as exc:  # e.g. not iterable: the caller's messages stay as they are
            reraise_user_interrupt(exc)
            return self._failed(messages, start, exc)
        lock = self._take(session_id, start, timeout)
        if lock is None:
            return PassOutcome(
                messages, "busy", self._clock() - start, "a pass of this session is running"
            )
        outcome = run_bounded(
            self._pool,
            timeout - (self._clock() - start) if timeout > 0 else 0,
            lambda: self._compress_then_release(lock, snapshot, keywords),
        )
        seconds = self._clock() - start
        if outcome is NEVER_STARTED:
            lock.release()  # it never will start: the next pass may
            detail = f"no pool thread was free within {timeout:g}s: the pass never started"
            return PassOutcome(messages, "pool_exhausted", seconds, detail)
        if outcome is LATE:  # its worker may be replaced; its result is dropped
            return PassOutcome(messages, "timeout", seconds, f"over {timeout:g}s")
        if isinstance(outcome, Raised):
            return self._failed(messages, start, outcome.error)
        assert isinstance(outcome, Done)
        return _checked(messages, outcome.value, seconds)

    def _take(self, session_id: str | None, start: float, timeout: float) -> threading.Lock | None:
        """The session's pass lock, held; None when it stays taken past the timeout."""
        lock = self._lock_for(session_id)
        if not lock.acquire(timeout=timeout if timeout > 0 else -1):
            return None
        if timeout > 0 and self._clock() - start >= timeout:
            lock.release()
            return None
        return lock

    def _compress_then_release(
        self, lock: threading.Lock, snapshot: list[Any], keywords: dict[str, Any]
    ) -> Any:
        try:
            return self._compress(snapshot, **keywords)
        finally:
            lock.release()  # only now may the next pass of this session start

    def _failed(self, messages: list[Any], start: float, exc: BaseException) -> PassOutcome:
        seconds = self._clock() - start
        return PassOutcome(messages, "error", seconds, f"{type(exc).__name__}: {exc}", error=exc)


def _checked(messages: list[Any], result: Any, seconds: float) -> PassOutcome:
    """What the engine returned, as an outcome: a valid message list is compressed (one
    whose only faults are orphaned tool results or unanswered calls is repaired first)."""
    if not isinstance(result, list):
        return PassOutcome(messages, "invalid", seconds, f"returned {type(result).__name__}")
    problems = validate_messages(result)
    if problems and all(p.repairable for p in problems):
        repaired = sanitize_tool_pairs(result)
        if repaired and not validate_messages(repaired):
            # only orphaned results or unanswered calls: the repair Hermes Agent makes
            detail = "; ".join(str(p) for p in problems[:3])
            dropped = len(result) - len(repaired)
            thrown = discarded(messages, repaired)
            if thrown is not None:
                return PassOutcome(messages, "invalid", seconds, thrown)
            outcome = PassOutcome(repaired, "compressed", seconds, detail, repaired=dropped)
            return _measured(messages, outcome)
    if problems or not result:
        detail = "; ".join(str(p) for p in problems[:3]) or "returned an empty list"
        return PassOutcome(messages, "invalid", seconds, detail)
    thrown = discarded(messages, result)
    if thrown is not None:
        return PassOutcome(messages, "invalid", seconds, thrown)
    return _measured(messages, PassOutcome(result, "compressed", seconds))


def _measured(messages: list[Any], outcome: PassOutcome) -> PassOutcome:
    """A compressed outcome with its sizes: ``no_gain`` when it is not smaller than its
    input (the input is kept), ``invalid`` when no estimate can measure it."""
    try:
        before = estimate_tokens(messages)
        after = estimate_tokens(outcome.messages)
    except (ValueError, TypeError, RecursionError) as exc:  # self-referential, nested too deep
        detail = f"unmeasurable: {type(exc).__name__}"
        return PassOutcome(messages, "invalid", outcome.seconds, detail)
    if after >= before:
        detail = f"{before} -> {after} tokens"
        return PassOutcome(messages, "no_gain", outcome.seconds, detail, 0, before, after)
    return PassOutcome(
        outcome.messages,
        "compressed",
        outcome.seconds,
        outcome.detail,
        outcome.repaired,
        before,
        after,
    )

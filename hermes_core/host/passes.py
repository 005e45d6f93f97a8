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
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass
from typing import Any, Literal

from hermes_core.containment import reraise_user_interrupt
from hermes_core.host.pool import DaemonPool
from hermes_core.messages import sanitize_tool_pairs, validate_messages
from hermes_core.messages.copying import copy_messages
from hermes_core.tokens import estimate_tokens

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


class PassRunner:
    """Runs compression passes for one engine, one pass per session at a time."""

    def __init__(self, compress: Callable[..., Any], pool: DaemonPool) -> None:
        self._compress = compress
        self._pool = pool
        self._locks: dict[str, threading.Lock] = {}
        self._locks_guard = threading.Lock()

    def _lock_for(self, session_id: str) -> threading.Lock:
        with self._locks_guard:
            lock = self._locks.get(session_id)
            if lock is None:
                lock = self._locks[session_id] = threading.Lock()
            return lock

    def forget(self, session_id: str) -> None:
        """Drop the session's lock unless a pass holds it (the session ended)."""
        with self._locks_guard:
            lock = self._locks.get(session_id)
            if lock is not None and not lock.locked():
                del self._locks[session_id]

    def run(
        self,
        session_id: str,
        messages: list[Any],
        keywords: dict[str, Any],
        timeout: float,
    ) -> PassOutcome:
        """Run one pass over ``messages`` with the engine keywords given; never raises.

        With ``timeout > 0`` the caller waits at most ``timeout`` seconds in all:
        waiting for the session's previous pass counts against it.
        """
        start = time.perf_counter()
        try:
            snapshot = copy_messages(messages)
        except BaseException as exc:  # e.g. not iterable: the caller's messages stay as they are
            reraise_user_interrupt(exc)
            return self._failed(messages, start, exc)
        lock = self._lock_for(session_id)
        if not lock.acquire(timeout=timeout if timeout > 0 else -1):
            return PassOutcome(
                messages, "busy", time.perf_counter() - start, "a pass of this session is running"
            )
        remaining = timeout - (time.perf_counter() - start)
        if timeout > 0 and remaining <= 0:
            lock.release()
            return PassOutcome(
                messages, "busy", time.perf_counter() - start, "a pass of this session is running"
            )

        def job() -> Any:
            try:
                return self._compress(snapshot, **keywords)
            finally:
                lock.release()  # only now may the next pass of this session start

        if timeout > 0:
            future = self._pool.submit(job)
            try:
                result = future.result(timeout=remaining)
            except FutureTimeout:
                if future.cancel():  # never started (every worker busy): it never will
                    lock.release()
                    return PassOutcome(
                        messages,
                        "pool_exhausted",
                        time.perf_counter() - start,
                        f"no pool thread was free within {timeout:g}s: the pass never started",
                    )
                self._pool.abandon(future)  # its worker may be replaced; its result is dropped
                return PassOutcome(
                    messages, "timeout", time.perf_counter() - start, f"over {timeout:g}s"
                )
            except BaseException as exc:  # raised on a pool thread: never the user's Ctrl-C
                return self._failed(messages, start, exc)
        else:
            try:
                result = job()
            except BaseException as exc:
                reraise_user_interrupt(exc)
                return self._failed(messages, start, exc)
        seconds = time.perf_counter() - start
        if not isinstance(result, list):
            return PassOutcome(messages, "invalid", seconds, f"returned {type(result).__name__}")
        problems = validate_messages(result)
        if problems and all(p.repairable for p in problems):
            repaired = sanitize_tool_pairs(result)
            if repaired and not validate_messages(repaired):
                # only orphaned results or unanswered calls: the repair Hermes Agent makes
                detail = "; ".join(str(p) for p in problems[:3])
                dropped = len(result) - len(repaired)
                outcome = PassOutcome(repaired, "compressed", seconds, detail, repaired=dropped)
                return _measured(messages, outcome)
        if problems or not result:
            detail = "; ".join(str(p) for p in problems[:3]) or "returned an empty list"
            return PassOutcome(messages, "invalid", seconds, detail)
        return _measured(messages, PassOutcome(result, "compressed", seconds))

    @staticmethod
    def _failed(messages: list[Any], start: float, exc: BaseException) -> PassOutcome:
        return PassOutcome(
            messages, "error", time.perf_counter() - start, f"{type(exc).__name__}: {exc}"
        )


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

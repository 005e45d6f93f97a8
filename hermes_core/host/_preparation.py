"""Preparing the next pass's summaries in the background, while the agent works.

After a turn whose prompt reached ``compression.prepare_at_share`` of the
engine's threshold, the host hands the engine's ``prepare_compress`` a copy of
the conversation on a thread of its pool, and does not wait: the agent goes
on. At most one preparation runs per session and pass: a turn that ends while
one runs starts none, but once a pass compacted the conversation, the one
still running prepares for a conversation that is gone, and the next turn
starts one for the new. The engine keys what it prepares by what it was made
from, so a pass uses it only when the conversation still holds that (see the
hookspec); the host only starts, counts and logs. A preparation that raises is
logged (``context_engine.preparation_failed``) and counted; it changes nothing.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

from hermes_core._containment import reraise_user_interrupt
from hermes_core._log import logger
from hermes_core.hooks._types import Messages
from hermes_core.host._engine_calls import EngineCalls
from hermes_core.host._handed import HandedCopies
from hermes_core.host._pool import DaemonPool

__all__ = ["Preparation"]


class Preparation:
    """One engine's ``prepare_compress``, started in the background when a prompt nears
    its threshold; None-safe for an engine that keeps the base class's default."""

    def __init__(
        self,
        calls: EngineCalls,
        prepare: Callable[..., Any] | None,
        handed: HandedCopies,
        pool: DaemonPool,
        share: float,
        timeout: float,
    ) -> None:
        self._calls = calls
        self._prepare = prepare if share > 0 else None
        self._handed = handed
        self._pool = pool
        self._share = share
        self._timeout = timeout
        self._running: set[tuple[str | None, int]] = set()
        #: Per session, how many passes compacted its conversation.
        self._passes: dict[str | None, int] = {}
        self._lock = threading.Lock()
        self._idle = threading.Condition(self._lock)

    def wait(self, timeout: float | None = None) -> bool:
        """Block until no preparation runs (at most ``timeout`` seconds); whether none does."""
        with self._idle:
            return self._idle.wait_for(lambda: not self._running, timeout)

    @property
    def running(self) -> int:
        """How many preparations are running now."""
        with self._lock:
            return len(self._running)

    def passed(self, session: str | None) -> None:
        """A pass compacted ``session``'s conversation: what is being prepared is stale."""
        with self._lock:
            self._passes[session] = self._passes.get(session, 0) + 1

    def due(self) -> bool:
        """Whether the engine's last prompt reached the share of its threshold at which
        preparing starts (read inline: two counters)."""
        if self._prepare is None:
            return False
        engine = self._calls.engine
        threshold = engine.threshold_tokens
        if threshold <= 0 or engine.last_prompt_tokens < self._share * threshold:
            return False
        return getattr(engine, "prepares_ahead", True) is not False

    def start(self, messages: Messages, session: str | None) -> bool:
        """Start preparing for ``session`` over a copy of ``messages``, unless the engine
        prepares nothing or a preparation of the session (since its last pass) runs;
        whether one started."""
        prepare = self._prepare
        if prepare is None:
            return False
        with self._lock:
            running = (session, self._passes.get(session, 0))
            if running in self._running:
                return False
            self._running.add(running)
        calls = self._calls
        offered = {
            "current_tokens": calls.engine.last_prompt_tokens,
            "session_id": session,
            "deadline": time.monotonic() + self._timeout if self._timeout > 0 else None,
        }
        keywords = calls.keywords("prepare_compress", offered)
        # each message copied once per session, as for turn_complete: the cost follows
        # what is new (a preparation is started after most turns near the threshold)
        copies = self._handed.copies((session, "prepare"), messages)
        calls.counters.add("preparations_started")
        logger.info(
            "context_engine.preparation_started",
            engine=calls.name,
            session_id=session,
            prompt_tokens=offered["current_tokens"],
        )

        def run() -> None:
            started = time.monotonic()
            try:
                prepare(copies, **keywords)
            except BaseException as exc:
                reraise_user_interrupt(exc)
                calls.counters.add("preparation_failures")
                logger.warning(
                    "context_engine.preparation_failed",
                    engine=calls.name,
                    session_id=session,
                    error=f"{type(exc).__name__}: {exc}",
                    effect="the next pass summarises as it would have",
                )
                calls.traceback("prepare_compress", exc)
            else:
                calls.counters.add("preparations_done")
                logger.info(
                    "context_engine.preparation_done",
                    engine=calls.name,
                    session_id=session,
                    seconds=round(time.monotonic() - started, 3),
                )
            finally:
                with self._idle:
                    self._running.discard(running)
                    self._idle.notify_all()

        self._pool.submit(run)
        return True

"""Compression passes as the host runs them: the keywords offered, the pass, its report,
and the backoff when passes stop helping.

:class:`Compaction` is the host's side of ``compress``: it offers the engine
only the keywords its method accepts, runs the pass through
:class:`~hermes_core.host._passes.PassRunner` (one pass per session at a
time, bounded by ``compression.context_timeout_seconds``), logs and counts
what happened, tells observers, and judges the pass for the backoff
(:mod:`hermes_core.host._backoff`). A pass that fails in any way gives the
caller the very list it passed in.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pluggy

from hermes_core._log import logger
from hermes_core.hooks._signatures import accepted_keywords
from hermes_core.hooks._specs import HOST_OFFERED_KEYWORDS
from hermes_core.hooks._types import Messages
from hermes_core.host._backoff import PassBackoff
from hermes_core.host._engine_calls import EngineCalls
from hermes_core.host._observers import notify
from hermes_core.host._passes import PassRunner
from hermes_core.host._pool import DaemonPool

__all__ = ["Compaction"]

#: The counter of each way a pass can leave the messages as they were.
_PASS_COUNTERS = {
    "error": "pass_failures",
    "timeout": "pass_timeouts",
    "invalid": "pass_invalid_results",
    "busy": "pass_busy",
    "pool_exhausted": "pass_pool_exhausted",
    "no_gain": "passes_no_gain",
}
_PASS_EVENTS = {
    "timeout": "context_engine.compress_timeout",
    "no_gain": "context_engine.no_gain",
}


class Compaction:
    """The engine's ``compress`` as the host runs it, with the backoff that holds passes
    which stopped helping."""

    def __init__(
        self,
        calls: EngineCalls,
        plugins: pluggy.PluginManager,
        pool: DaemonPool,
        backoff: PassBackoff,
        compressed: Callable[[str | None], None] = lambda session: None,
    ) -> None:
        self.calls = calls
        #: Told each session whose conversation a pass compacted.
        self._compressed = compressed
        self.backoff = backoff
        self.passes = PassRunner(calls.methods["compress"], pool)
        self._plugins = plugins
        self._offers = frozenset(
            accepted_keywords(
                calls.engine.compress, dict.fromkeys(HOST_OFFERED_KEYWORDS["compress"])
            )
        )

    def held(self, prompt_tokens: int | None, window: int, budget: int) -> bool:
        """Whether a pass the engine asks for is held by a backoff (see its rule at the
        window in :mod:`~hermes_core.host._backoff`); counted as ``passes_held``."""
        # the host asks only while a backoff holds (its hot path tests that first)
        tokens = (
            prompt_tokens if prompt_tokens is not None else self.calls.engine.last_prompt_tokens
        )
        at_window = bool(window) and tokens >= budget
        if not self.backoff.holds(at_window):
            return False
        self.calls.counters.add("passes_held")
        return True

    def run(
        self, messages: Messages, session: str | None, timeout: float, **offered: Any
    ) -> Messages:
        """One pass over ``messages`` of ``session``: the engine's result, or ``messages``
        itself when the pass failed, was late, busy or freed nothing (see
        :meth:`ContextHost.compress <hermes_core.ContextHost.compress>`)."""
        offered.update(
            session_id=session, deadline=time.monotonic() + timeout if timeout > 0 else None
        )
        keywords = {k: v for k, v in offered.items() if k in self._offers}
        calls = self.calls
        calls.counters.add("passes")
        outcome = self.passes.run(session, messages, keywords, timeout)
        before, after = outcome.before_tokens, outcome.after_tokens
        if outcome.outcome not in ("busy", "pool_exhausted"):  # those ran nothing
            self._judge(session, before, after)  # a failed pass (no sizes) freed nothing
        if outcome.outcome == "compressed":
            if outcome.repaired:
                logger.warning(
                    "context_engine.result_repaired",
                    engine=calls.name,
                    session_id=session,
                    dropped_messages=outcome.repaired,
                    problems=outcome.detail,
                )
            calls.counters.add("passes_compressed")
            self._compressed(session)
            logger.info(
                "context_engine.compressed",
                engine=calls.name,
                session_id=session,
                before_tokens=before,
                after_tokens=after,
                messages_before=len(messages),
                messages_after=len(outcome.messages),
                seconds=round(outcome.seconds, 3),
            )
            notify(
                self._plugins,
                "hermes_context_compressed",
                session_id=session,
                before_tokens=before,
                after_tokens=after,
                engine_name=calls.name,
            )
            return outcome.messages
        calls.counters.add(_PASS_COUNTERS[outcome.outcome])
        if outcome.error is not None:
            calls.traceback("compress", outcome.error)
        sizes = {"before_tokens": before, "after_tokens": after} if before else {}
        logger.warning(
            _PASS_EVENTS.get(outcome.outcome, "context_engine.compress_failed"),
            engine=calls.name,
            session_id=session,
            reason=outcome.outcome,
            detail=outcome.detail,
            seconds=round(outcome.seconds, 3),
            **sizes,
        )
        notify(
            self._plugins,
            "hermes_context_pass_failed",
            session_id=session,
            engine_name=calls.name,
            reason=outcome.outcome,
        )
        return messages

    def _judge(self, session: str | None, before: int, after: int) -> None:
        """Back passes off when this one did not help (see :mod:`~hermes_core.host._backoff`)."""
        backed_off = self.backoff.judge(before, after)
        if backed_off is None:
            return
        reason, responses = backed_off
        self.calls.counters.add("passes_backed_off")
        logger.warning(
            "context_engine.passes_backed_off",
            engine=self.calls.name,
            session_id=session,
            reason=reason,
            responses=responses,
            before_tokens=before,
            after_tokens=after,
            effect=f"should_compress says no for the next {responses} responses, below the window",
        )

    def forget(self, session: str | None) -> None:
        """``session`` ended: its pass lock goes."""
        self.passes.forget(session)

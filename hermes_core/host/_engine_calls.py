"""The selected engine's methods as the host calls them, and what it does when one fails.

Every host method goes through one :class:`EngineCalls`: a call that may do
work is bounded by ``compression.hook_timeout_seconds`` (:meth:`EngineCalls.bounded`),
an inline one only contained (:meth:`EngineCalls.inline`); a call that raises,
is late or answers nonsense is logged with a stable event name and counted,
and the caller gets the default it would have had with no engine.
"""

from __future__ import annotations

import traceback
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from hermes_core._engine import ContextEngine
from hermes_core._log import logger
from hermes_core.hooks._signatures import accepted_keywords
from hermes_core.host._bounded import BoundedCalls, contained
from hermes_core.host._counters import HostCounters
from hermes_core.host._pool import DaemonPool

__all__ = ["FAILED", "EngineCalls"]

T = TypeVar("T")

#: What a call gives back when the engine raised or was late (logged and counted already).
FAILED: Any = object()


class EngineCalls:
    """One engine's hook methods (``methods``, bound once, traced when asked), the bound
    on those that may do work, and the reports of their failures."""

    def __init__(
        self,
        engine: ContextEngine,
        name: str,
        methods: dict[str, Callable[..., Any]],
        counters: HostCounters,
        pool: DaemonPool,
        limit: float,
    ) -> None:
        self.engine = engine
        self.name = name
        self.methods = methods
        self.counters = counters
        #: ``bounded(method, function, default, *args, **kwargs)``: see :class:`BoundedCalls`.
        self.bounded = BoundedCalls(pool, limit, self.failed, self.late)

    def keywords(self, method: str, offered: Mapping[str, Any]) -> dict[str, Any]:
        """The items of ``offered`` the engine's ``method`` accepts by keyword."""
        return accepted_keywords(getattr(self.engine, method), offered)

    def inline(self, method: str, function: Callable[[], T], default: T) -> T:
        """``function()`` on the caller's thread; ``default`` once a failure is reported."""
        return contained(method, function, default, self.failed)

    # ------------------------------------------------------------------ reports

    def failed(self, method: str, exc: BaseException) -> None:
        """The engine's ``method`` raised ``exc``: logged and counted as ``hook_failures``."""
        self.counters.add("hook_failures")
        logger.warning(
            "context_engine.hook_failed",
            engine=self.name,
            method=method,
            error=f"{type(exc).__name__}: {exc}",
        )
        self.traceback(method, exc)

    def traceback(self, method: str, exc: BaseException) -> None:
        """For the engine's author (``--debug``): where it raised; redacted like every event.
        Formatted only when debug events are written (an engine may fail on every call)."""
        if not logger.debugging():
            return
        logger.debug(
            "context_engine.hook_traceback",
            engine=self.name,
            method=method,
            message=f"{self.name}.{method} raised:\n"
            + "".join(traceback.format_exception(exc)).rstrip(),
        )

    def late(self, method: str, limit: float) -> None:
        """The engine's ``method`` ran past ``limit`` seconds: logged and counted."""
        self.counters.add("hook_timeouts")
        logger.warning(
            "context_engine.hook_timeout",
            engine=self.name,
            method=method,
            seconds=limit,
            effect="the agent got what it would have had without the engine",
        )

    def bad_result(self, method: str, result: object, problem: str | None = None) -> None:
        """The engine's ``method`` answered ``result``, which the host cannot use."""
        self.counters.add("hook_failures")
        detail = {"problem": problem} if problem is not None else {}
        logger.warning(
            "context_engine.invalid_result",
            engine=self.name,
            method=method,
            got=type(result).__name__,
            **detail,
        )

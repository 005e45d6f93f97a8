"""``HERMES_TRACE_HOOKS=1``: log every engine call with its arguments' sizes and duration."""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from hermes_core._log import logger

__all__ = ["trace_enabled", "traced"]

F = TypeVar("F", bound=Callable[..., Any])
_ON = {"1", "true", "yes", "on"}


def trace_enabled(env: Mapping[str, str]) -> bool:
    """Whether ``HERMES_TRACE_HOOKS`` asks for call tracing."""
    return env.get("HERMES_TRACE_HOOKS", "").strip().lower() in _ON


def _size(value: object) -> object:
    if isinstance(value, (list, tuple, dict, str)):
        return len(value)
    return type(value).__name__


def traced(engine_name: str, method: str, function: F) -> F:
    """Wrap ``function`` so each call logs ``context_engine.call``.

    Fields: ``engine``, ``method``, ``duration_ms``, ``args`` and ``kwargs``
    (lengths of containers and strings, type names otherwise) and
    ``outcome`` (``ok`` or the exception type).
    """

    @functools.wraps(function)
    def call(*args: Any, **kwargs: Any) -> Any:
        start = time.perf_counter()
        outcome = "ok"
        try:
            return function(*args, **kwargs)
        except BaseException as exc:
            outcome = type(exc).__name__
            raise
        finally:
            logger.info(
                "context_engine.call",
                engine=engine_name,
                method=method,
                duration_ms=round((time.perf_counter() - start) * 1000, 3),
                args=[_size(a) for a in args],
                kwargs={k: _size(v) for k, v in kwargs.items()},
                outcome=outcome,
            )

    return call  # type: ignore[return-value]

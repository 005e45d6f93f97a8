"""The helpers of Hermes Agent's ``agent.context_compressor`` a plugin may call, where
Hermes Agent is not installed: written here to the behaviour their names and Hermes'
docstrings promise, not copied.

- :func:`is_compaction_summary_message`: whether a message is a summary an engine wrote
  (the metadata key Hermes sets, else the text's marker).
- :func:`resolve_model_threshold`: a per-model threshold, the longest matching key of
  ``model_thresholds`` winning (``"<provider>:<part>"`` keys only on that provider, and
  before a bare key of the same part).
- :func:`pin_summary_route` and the two ``take_`` functions: a route for the next summary
  call, pinned for the calling context and taken once. hermes-context's ``call_llm``
  routes by the host's auxiliary LLM, so a pinned route changes no call here.
- :func:`elide` and :func:`elide_middle`: text cut to a length, a marker saying how much
  of how much was left out.
- :func:`redact_sensitive_text`: :func:`hermes_core._redaction.redact`, whatever flags.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from hermes_core._redaction import redact
from hermes_core.messages._provenance import engine_written

__all__ = [
    "COMPRESSED_SUMMARY_METADATA_KEY",
    "DETERMINISTIC_SUMMARY_ROUTE",
    "ELISION_MARKER_MAX_LEN",
    "elide",
    "elide_middle",
    "is_compaction_summary_message",
    "pin_summary_route",
    "redact_sensitive_text",
    "resolve_model_threshold",
    "take_deterministic_summary_pin",
    "take_pinned_summary_route",
]

#: The key Hermes sets on a message that holds a summary.
COMPRESSED_SUMMARY_METADATA_KEY = "_compressed_summary"
#: The route that asks for a summary written without an LLM.
DETERMINISTIC_SUMMARY_ROUTE: dict[str, Any] = {
    "label": "deterministic fallback summary",
    "deterministic": True,
}
_pinned: ContextVar[dict[str, Any] | None] = ContextVar("hermes_summary_route", default=None)


def is_compaction_summary_message(message: Any) -> bool:
    """Whether ``message`` (a message, or its text) is a summary an engine wrote."""
    if isinstance(message, dict) and message.get(COMPRESSED_SUMMARY_METADATA_KEY):
        return True
    if isinstance(message, str):
        message = {"role": "user", "content": message}
    return engine_written(message)


def _rank(key: str, model: str, provider: str) -> tuple[int, int] | None:
    scope, scoped, part = key.partition(":")
    if not scoped:
        return (len(key), 0) if key in model else None
    if scope.strip().lower() != provider or part not in model:
        return None
    return (len(part), 1)


def resolve_model_threshold(
    model: str, model_thresholds: dict[str, float] | None, default: float, provider: str = ""
) -> float:
    """The threshold ``model_thresholds`` gives ``model`` on ``provider``, else ``default``."""
    if not model or not model_thresholds:
        return default
    provider = (provider or "").strip().lower()
    ranked = [(rank, key) for key in model_thresholds if (rank := _rank(key, model, provider))]
    if not ranked:
        return default
    return float(model_thresholds[max(ranked)[1]])


@contextmanager
def pin_summary_route(route: dict[str, Any] | None) -> Iterator[None]:
    """Pin ``route`` for the next summary call made in this context (None pins nothing);
    the pin before it comes back on leaving."""
    token = _pinned.set(route if isinstance(route, dict) else None)
    try:
        yield
    finally:
        _pinned.reset(token)


def take_pinned_summary_route() -> dict[str, Any] | None:
    """The pinned route, taken: a second call returns None."""
    route = _pinned.get()
    if route is not None:
        _pinned.set(None)
    return route


def take_deterministic_summary_pin() -> bool:
    """Whether the pin asks for a summary without an LLM; only then is it taken."""
    route = _pinned.get()
    if not (isinstance(route, dict) and route.get("deterministic") is True):
        return False
    _pinned.set(None)
    return True


def _marker(omitted: int, total: int) -> str:
    return f" [... {omitted} of {total} characters left out ...] "


#: The longest marker :func:`elide` writes, for any text under a terabyte.
ELISION_MARKER_MAX_LEN = len(_marker(10**12 - 1, 10**12 - 1))


def elide(text: str, limit: int) -> str:
    """``text`` cut to at most ``limit`` characters, a marker at the cut; unchanged when it
    fits, the marker alone when ``limit`` cannot hold more."""
    if len(text) <= limit:
        return text
    total = len(text)
    head = limit - len(_marker(total, total))
    if head <= 0:
        return _marker(total, total).strip()
    kept = text[:head].rstrip()
    return kept + _marker(total - len(kept), total).rstrip()


def elide_middle(text: str, head: int, tail: int) -> str:
    """The first ``head`` and last ``tail`` characters of ``text``, a marker between."""
    if len(text) <= head + tail:
        return text
    return text[:head] + _marker(len(text) - head - tail, len(text)) + text[len(text) - tail :]


def redact_sensitive_text(text: str, **_flags: Any) -> str:
    """``text`` with its secrets replaced (Hermes' flags choose among its own patterns; here
    every pattern applies)."""
    return redact(text)

"""Where hermes-context's events go: the standard :mod:`logging` tree under ``hermes_core``.

Events are stable dotted names with key-value fields
(``context_engine.duplicate_rejected``, ``name=``, ``kept=``, ``rejected=``),
so users can filter and alert on them. They are emitted onto
:func:`logging.getLogger` ``("hermes_core")`` (engines may use a child such as
``hermes_core.engines.lcm``) by a small :class:`EventLogger`, which makes them:

* silent unless the application configures logging (a library never prints;
  an embedder whose stdout is a protocol channel stays intact);
* filtered by the usual means: ``logging.getLogger("hermes_core").setLevel(...)``;
* structured: every :class:`logging.LogRecord` carries ``hermes_event`` (the
  event name) and ``hermes_fields`` (a dict of the fields), while its message
  reads ``event key=value ...`` for a plain formatter;
* redacted: every text field passes through :func:`~hermes_core._redaction.redact`
  on its way out, whoever wrote the event, so a URL with a token in its query or
  a key in an error's text never reaches a handler; so does every text inside a
  list, tuple or dict field;
* bounded: a text field carries at most :data:`MAX_FIELD_CHARS` characters, a
  collection :data:`MAX_FIELD_ITEMS` items (then how many more there were),
  nested :data:`MAX_FIELD_DEPTH` deep: one event stays a few kilobytes whatever a
  plugin, a file or a server handed it.

The events are structlog-shaped (an event name and fields), but the library
does not import structlog: an application's own structlog setup neither
changes nor is changed by these events, and ``import hermes_core`` stays light
(the command line renders them with structlog's console renderer).
"""

from __future__ import annotations

import itertools
import logging
from collections.abc import Mapping
from typing import Any

from hermes_core._redaction import quote_body

__all__ = [
    "LOGGER_NAME",
    "MAX_FIELD_CHARS",
    "MAX_FIELD_DEPTH",
    "MAX_FIELD_ITEMS",
    "EventLogger",
    "event_fields",
    "get_logger",
    "logger",
    "render_message",
]

#: The most characters of one text in an event (cut with "...", redacted).
MAX_FIELD_CHARS = 2_000
#: The most items of one list, tuple, set or dict in an event (then "... N more").
MAX_FIELD_ITEMS = 32
#: How deep collections in an event are shown (deeper ones as a short repr).
MAX_FIELD_DEPTH = 4

#: The root of the logger tree every hermes-context event is emitted on.
LOGGER_NAME = "hermes_core"

# Without a handler of its own, logging's last resort would print warnings on stderr
# when the application configured nothing; a library stays silent instead.
logging.getLogger(LOGGER_NAME).addHandler(logging.NullHandler())


def _bounded(value: Any, depth: int = 0) -> Any:
    """``value`` as an event may carry it: texts redacted and cut, collections cut, nesting
    cut (numbers, booleans and None as they are)."""
    if isinstance(value, str):
        return quote_body(value, MAX_FIELD_CHARS)
    if value is None or isinstance(value, bool | int | float):
        return value
    if depth >= MAX_FIELD_DEPTH or not isinstance(value, list | tuple | set | frozenset | dict):
        return quote_body(repr(value), MAX_FIELD_CHARS)
    if isinstance(value, dict):
        items = list(itertools.islice(value.items(), MAX_FIELD_ITEMS))
        shown: Any = {_bounded(k, depth + 1): _bounded(v, depth + 1) for k, v in items}
        if len(value) > MAX_FIELD_ITEMS:
            shown["..."] = f"{len(value) - MAX_FIELD_ITEMS} more"
        return shown
    kept = [_bounded(v, depth + 1) for v in itertools.islice(value, MAX_FIELD_ITEMS)]
    if len(value) > MAX_FIELD_ITEMS:
        kept.append(f"... {len(value) - MAX_FIELD_ITEMS} more")
    return kept if isinstance(value, list | set | frozenset) else tuple(kept)


def _plain(value: object) -> str:
    text = value if isinstance(value, str) else repr(value)
    if not text or any(c.isspace() or c in "\"'=" for c in text):
        return repr(value) if isinstance(value, str) else repr(text)
    return text


def render_message(event: str, fields: Mapping[str, Any]) -> str:
    """``event key=value ...``: the one-line text of an event, for formatters that show only it."""
    return " ".join([event, *(f"{key}={_plain(value)}" for key, value in fields.items())])


class EventLogger:
    """Emits events onto a standard logger: ``logger.warning("event.name", key=value)``.

    Each record's message is ``event key=value ...``; ``hermes_event`` holds the
    event name and ``hermes_fields`` the fields (one attribute each: field names
    such as ``name`` or ``message`` would collide with LogRecord's own attributes
    if spread into ``extra``). Nothing is formatted when the level is disabled.
    """

    __slots__ = ("_logger",)

    def __init__(self, logger: logging.Logger) -> None:
        self._logger = logger

    def _emit(self, level: int, event: str, fields: dict[str, Any]) -> None:
        if self._logger.isEnabledFor(level):
            fields = {k: _bounded(v) for k, v in fields.items()}
            self._logger.log(
                level,
                render_message(event, fields),
                extra={"hermes_event": event, "hermes_fields": fields},
                stacklevel=3,
            )

    def debugging(self) -> bool:
        """Whether debug events are written: a field that is costly to build (a traceback)
        is built only then."""
        return self._logger.isEnabledFor(logging.DEBUG)

    def debug(self, event: str, **fields: Any) -> None:
        self._emit(logging.DEBUG, event, fields)

    def info(self, event: str, **fields: Any) -> None:
        self._emit(logging.INFO, event, fields)

    def warning(self, event: str, **fields: Any) -> None:
        self._emit(logging.WARNING, event, fields)

    def error(self, event: str, **fields: Any) -> None:
        self._emit(logging.ERROR, event, fields)


def get_logger(name: str = LOGGER_NAME) -> EventLogger:
    """An :class:`EventLogger` whose events go to the standard logger ``name``.

    Use a name inside the ``hermes_core`` tree (``hermes_core.engines.NAME``
    for an engine) so that one logging setting covers every event.
    """
    return EventLogger(logging.getLogger(name))


def event_fields(record: logging.LogRecord) -> dict[str, Any]:
    """The event of ``record`` as a dict (``event`` plus its fields); any record works.

    A record that did not come from :func:`get_logger` gives its message as
    the event and no fields.
    """
    event = getattr(record, "hermes_event", None)
    if event is None:
        return {"event": record.getMessage()}
    return {"event": event, **getattr(record, "hermes_fields", {})}


#: The logger hermes-context's own modules and engines emit on.
logger = get_logger()

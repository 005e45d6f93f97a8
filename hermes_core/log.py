"""Where hermes-context's events go: the standard :mod:`logging` tree under ``hermes_core``.

Events are stable dotted names with key-value fields
(``context_engine.duplicate_rejected``, ``name=``, ``kept=``, ``rejected=``),
so users can filter and alert on them. They are emitted through structlog's
standard-library integration onto :func:`logging.getLogger` ``("hermes_core")``
(engines may use a child such as ``hermes_core.engines.lcm``), which makes
them:

* silent unless the application configures logging (a library never prints;
  an embedder whose stdout is a protocol channel stays intact);
* filtered by the usual means: ``logging.getLogger("hermes_core").setLevel(...)``;
* structured: every :class:`logging.LogRecord` carries ``hermes_event`` (the
  event name) and ``hermes_fields`` (a dict of the fields), while its message
  reads ``event key=value ...`` for a plain formatter.

hermes-context never calls :func:`structlog.configure`: an application's own
structlog setup neither changes nor is changed by these events.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, MutableMapping
from typing import Any

import structlog

__all__ = ["LOGGER_NAME", "event_fields", "get_logger", "logger", "render_message"]

#: The root of the logger tree every hermes-context event is emitted on.
LOGGER_NAME = "hermes_core"

# Without a handler of its own, logging's last resort would print warnings on stderr
# when the application configured nothing; a library stays silent instead.
logging.getLogger(LOGGER_NAME).addHandler(logging.NullHandler())


def _plain(value: object) -> str:
    text = value if isinstance(value, str) else repr(value)
    if not text or any(c.isspace() or c in "\"'=" for c in text):
        return repr(value) if isinstance(value, str) else repr(text)
    return text


def render_message(event: str, fields: Mapping[str, Any]) -> str:
    """``event key=value ...``: the one-line text of an event, for formatters that show only it."""
    return " ".join([event, *(f"{key}={_plain(value)}" for key, value in fields.items())])


def _to_log_call(
    _logger: object, _method: str, event_dict: MutableMapping[str, Any]
) -> tuple[tuple[Any, ...], dict[str, Any]]:
    event = str(event_dict.pop("event", ""))
    fields = dict(event_dict)
    message = render_message(event, fields)
    # One attribute each: field names such as ``name`` or ``message`` would
    # collide with LogRecord's own attributes if spread into ``extra``.
    return (message,), {"extra": {"hermes_event": event, "hermes_fields": fields}}


def get_logger(name: str = LOGGER_NAME) -> structlog.stdlib.BoundLogger:
    """A structlog logger whose events go to the standard logger ``name``.

    Use a name inside the ``hermes_core`` tree (``hermes_core.engines.NAME``
    for an engine) so that one logging setting covers every event.
    """
    return structlog.wrap_logger(  # type: ignore[no-any-return]
        logging.getLogger(name),
        processors=[structlog.stdlib.filter_by_level, _to_log_call],
        wrapper_class=structlog.stdlib.BoundLogger,
    )


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

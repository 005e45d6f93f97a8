"""Capturing hermes-context's events in a test, as dicts."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from hermes_core._log import LOGGER_NAME, event_fields

__all__ = ["EventCapture", "capture_events"]


class EventCapture(logging.Handler):
    """A logging handler that keeps every event it sees as a dict.

    Each entry holds ``event``, ``log_level`` (``"warning"``, ...), ``logger``
    and the event's fields, like :class:`structlog.testing.LogCapture`.
    """

    def __init__(self) -> None:
        super().__init__(level=logging.DEBUG)
        self.entries: list[dict[str, Any]] = []

    def emit(self, record: logging.LogRecord) -> None:
        entry = event_fields(record)
        entry["log_level"] = record.levelname.lower()
        entry["logger"] = record.name
        self.entries.append(entry)

    def named(self, event: str) -> list[dict[str, Any]]:
        """The entries of one event name, in order."""
        return [entry for entry in self.entries if entry["event"] == event]


@contextmanager
def capture_events(level: int = logging.DEBUG) -> Iterator[EventCapture]:
    """Capture every event of the ``hermes_core`` logger tree from ``level`` up.

    The logger's level and handlers are restored afterwards.
    """
    root = logging.getLogger(LOGGER_NAME)
    capture = EventCapture()
    previous = root.level
    root.addHandler(capture)
    root.setLevel(level)
    try:
        yield capture
    finally:
        root.removeHandler(capture)
        root.setLevel(previous)

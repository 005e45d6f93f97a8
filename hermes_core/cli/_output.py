"""How the command line talks: rich tables on stdout, events and errors on stderr."""

from __future__ import annotations

import json
import logging
import re
import string
import sys
from typing import Any, NoReturn

import click
import structlog
from rich.console import Console
from rich.markup import escape
from rich.text import Text

from hermes_core._log import LOGGER_NAME, event_fields

__all__ = [
    "LOG_FORMATS",
    "cell",
    "configure_logging",
    "emit_json",
    "fail",
    "out",
    "printable",
    "repeated_summary",
    "say",
]

out = Console(soft_wrap=False)
err = Console(stderr=True, soft_wrap=True)  # an error is one line, whatever the width

#: The renderings ``--log-format`` offers.
LOG_FORMATS = ("console", "json")


class EventFormatter(logging.Formatter):
    """Renders one event as a console line or a JSON object."""

    def __init__(self, log_format: str) -> None:
        super().__init__()
        self._json = log_format == "json"

    def format(self, record: logging.LogRecord) -> str:
        event: dict[str, Any] = {"level": record.levelname.lower(), **event_fields(record)}
        if self._json:
            stamp = self.formatTime(record, "%Y-%m-%dT%H:%M:%S")
            return json.dumps(
                {"timestamp": f"{stamp}.{int(record.msecs):03d}", "logger": record.name, **event},
                default=str,
            )
        level, name = event.pop("level"), event.pop("event", record.getMessage())
        if isinstance(event.get("message"), str):  # the event says it in a sentence: show that
            return f"{level}: {event['message']} [{name}]"
        # one style for every line: the level, the event, then its fields as key=value
        fields = " ".join(f"{key}={_shown(value)}" for key, value in event.items())
        return f"{level}: {name}" + (f" {fields}" if fields else "")


def _shown(value: Any) -> str:
    """A field's value on a console line: words as they are, text with spaces quoted."""
    if isinstance(value, str) and value and not any(c.isspace() or c in "'\"=" for c in value):
        return value
    return repr(value)


class OnceHandler(logging.StreamHandler):  # type: ignore[type-arg]
    """Writes each console line once: a warning that several engines (or the dozens of
    engines a contract check builds) repeat is shown the first time, and :meth:`summary`
    says how often it came. JSON lines are all written: a machine counts them itself."""

    def __init__(self, log_format: str) -> None:
        super().__init__(sys.stderr)
        self.setFormatter(EventFormatter(log_format))
        self._once = log_format != "json"
        #: Each distinct event: the line shown, and how often it came.
        self.counts: dict[str, tuple[str, int]] = {}

    def emit(self, record: logging.LogRecord) -> None:
        if self._once:
            try:
                key = _same(record)
                if key in self.counts:
                    self.counts[key] = (self.counts[key][0], self.counts[key][1] + 1)
                    return
                self.counts[key] = (self.format(record), 1)
            except Exception:
                self.handleError(record)
                return
        super().emit(record)

    def summary(self) -> list[str]:
        """One line per line that came more than once: how often, and the line."""
        return [
            f"({count} times, shown once: {line})"
            for line, count in self.counts.values()
            if count > 1
        ]


#: Fields that differ between repeats of one event (a duration, a size): not part of
#: what makes two lines the same.
_VOLATILE = frozenset({"seconds", "before_tokens", "after_tokens", "messages_before"})


def _same(record: logging.LogRecord) -> str:
    """What two records that say the same thing share: every field but the volatile ones,
    numbers in text aside (``'12303 -> 12303 tokens'`` is the same line as the next pass's)."""
    fields = event_fields(record)
    return repr(
        sorted((k, _NUMBERS.sub("#", repr(v))) for k, v in fields.items() if k not in _VOLATILE)
    )


_NUMBERS = re.compile(r"\d+")


def repeated_summary() -> None:
    """Say, on stderr, which lines of this command's log came more than once."""
    for handler in logging.getLogger(LOGGER_NAME).handlers:
        if isinstance(handler, OnceHandler):
            for line in handler.summary():
                print(line, file=sys.stderr)
            handler.counts.clear()


def configure_logging(debug: bool, log_format: str = "console") -> None:
    """Events of the ``hermes_core`` tree go to stderr: warnings, and info with ``--debug``.

    Engines that log through structlog's defaults are sent to stderr too, so
    nothing an engine logs can land in the command's own output.
    """
    handler = OnceHandler(log_format)
    root = logging.getLogger(LOGGER_NAME)
    for old in list(root.handlers):  # ours from an earlier call (an application's stay)
        if isinstance(old.formatter, EventFormatter):
            root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(logging.DEBUG if debug else logging.WARNING)
    root.propagate = False
    structlog.configure(
        processors=[
            structlog.processors.add_log_level,
            structlog.dev.ConsoleRenderer(colors=False),
        ],
        logger_factory=structlog.PrintLoggerFactory(sys.stderr),
        wrapper_class=structlog.make_filtering_bound_logger(
            logging.DEBUG if debug else logging.WARNING
        ),
    )


#: What a terminal would act on instead of showing: control characters (an escape
#: sequence starts with one) other than a line break and a tab, the C1 controls, the
#: characters that reorder text (bidirectional overrides), and lone surrogates, which no
#: encoding can write.
_UNPRINTABLE = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069\ud800-\udfff]"
)


def _escaped(match: re.Match[str]) -> str:
    code = ord(match.group(0))
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printable(text: str) -> str:
    """``text`` as a terminal shows it without acting on it: each control character,
    text-reordering character and lone surrogate written as its escape (``\\x1b``)."""
    return _UNPRINTABLE.sub(_escaped, text)


class _Escaping(string.Formatter):
    """Fills a markup template; each value is formatted, then escaped, so that text such
    as ``hermes-context[plot]`` or ``[x]`` is shown as written, never taken for markup,
    and a control character is shown as its escape (:func:`printable`)."""

    def format_field(self, value: Any, format_spec: str) -> str:
        return escape(printable(format(value, format_spec)))


_ESCAPING = _Escaping()


def say(template: str, /, *, to: Console = out, **values: Any) -> None:
    """Print ``template``, rich markup written here, with each ``{name}`` (format specs
    allowed: ``{tokens:,}``) filled by ``values[name]`` shown as written: the one way a
    command prints a line that carries data."""
    to.print(_ESCAPING.format(template, **values), highlight=False)


def cell(value: object) -> Text:
    """A table cell showing ``value`` as written (table cells are markup otherwise), its
    control characters as escapes (:func:`printable`)."""
    return Text(printable(str(value)))


def emit_json(data: Any) -> None:
    """Machine-readable output for ``--json``."""
    click.echo(json.dumps(data, indent=2, default=str))


def fail(message: str, code: int = 2) -> NoReturn:
    """One clear message on stderr and a non-zero exit; never a traceback."""
    say("[bold red]error:[/] {message}", to=err, message=message)
    raise SystemExit(code)

"""How the command line talks: rich tables on stdout, structured logs and errors on stderr."""

from __future__ import annotations

import json
import sys
from typing import Any, NoReturn

import click
import structlog
from rich.console import Console

__all__ = ["configure_logging", "emit_json", "fail", "out"]

out = Console(soft_wrap=False)
err = Console(stderr=True)


def configure_logging(debug: bool) -> None:
    """Structured warnings go to stderr; info events only with ``--debug``."""
    structlog.configure(
        processors=[
            structlog.processors.add_log_level,
            structlog.dev.ConsoleRenderer(colors=False),
        ],
        logger_factory=structlog.PrintLoggerFactory(sys.stderr),
        wrapper_class=structlog.make_filtering_bound_logger(10 if debug else 30),
    )


def emit_json(data: Any) -> None:
    """Machine-readable output for ``--json``."""
    click.echo(json.dumps(data, indent=2, default=str))


def fail(message: str, code: int = 2) -> NoReturn:
    """One clear message on stderr and a non-zero exit; never a traceback."""
    err.print(f"[bold red]error:[/] {message}", highlight=False)
    raise SystemExit(code)

"""``hermes-context``: list the installed context engines and which one is selected."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

import structlog

from hermes_core.config import load_config
from hermes_core.errors import HermesError
from hermes_core.registry import EngineRegistry

__all__ = ["main"]


def _configure_logging() -> None:
    # Listings go to stdout; structured warnings go to stderr.
    structlog.configure(
        processors=[
            structlog.processors.add_log_level,
            structlog.dev.ConsoleRenderer(colors=False),
        ],
        logger_factory=structlog.PrintLoggerFactory(sys.stderr),
    )


def _engines(args: argparse.Namespace) -> int:
    config = load_config(args.config)
    registry = EngineRegistry.discover(config)
    choice = config.engine
    if args.json:
        print(
            json.dumps(
                {
                    "selected": choice.name,
                    "selected_by": choice.origin,
                    "engines": [record.as_dict() for record in registry],
                },
                indent=2,
            )
        )
        return 0
    rows = [("NAME", "STATUS", "SOURCE", "DESCRIPTION")]
    rows += [(r.name, r.status.value, str(r.source), r.reason or r.description) for r in registry]
    widths = [max(len(row[i]) for row in rows) for i in range(3)]
    for row in rows:
        print(
            "  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=False)), row[3]
        )
    print(f"\nselected: {choice.name} (by {choice.origin})")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the process exit code."""
    parser = argparse.ArgumentParser(prog="hermes-context", description=__doc__)
    parser.add_argument(
        "--config",
        help="config.yaml to read (default: $HERMES_CONFIG, else $HERMES_HOME/config.yaml)",
    )
    commands = parser.add_subparsers(dest="command", required=True)
    engines = commands.add_parser("engines", help="list installed engines; imports none")
    engines.add_argument("--json", action="store_true", help="machine-readable output")
    engines.set_defaults(run=_engines)
    args = parser.parse_args(argv)
    _configure_logging()
    try:
        code: int = args.run(args)
    except HermesError as exc:
        print(f"hermes-context: error: {exc}", file=sys.stderr)
        return 2
    return code

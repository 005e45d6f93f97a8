"""``hermes-context engines``: every engine found, without importing any."""

from __future__ import annotations

from typing import Any

import click
from rich.table import Table

from hermes_core.cli.common import discover
from hermes_core.cli.output import emit_json, out
from hermes_core.errors import EngineError
from hermes_core.registry import EngineStatus

__all__ = ["command"]

_STYLE = {
    "selected": "bold green",
    "available": "green",
    "duplicate": "yellow",
    "incompatible": "red",
    "broken": "red",
}


@click.command("engines")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@click.option(
    "--check",
    is_flag=True,
    help="Import every engine and validate it against the hookspecs (exit 1 if one fails).",
)
@click.pass_context
def command(ctx: click.Context, as_json: bool, check: bool) -> None:
    """List every engine found: name, source, status, description.

    Reads metadata only, unless --check asks to import and validate each one.
    """
    registry = discover(ctx)
    checks: dict[str, str | None] = {}
    if check:
        for record in registry:
            if record.status in (EngineStatus.AVAILABLE, EngineStatus.SELECTED):
                try:
                    registry.create_engine(record.name)
                    checks[record.name] = None
                except EngineError as exc:
                    checks[record.name] = str(exc)
    choice = registry.config.engine
    entries: list[dict[str, Any]] = [record.as_dict() for record in registry]
    for entry in entries:
        if entry["name"] in checks:
            entry["check"] = "ok" if checks[entry["name"]] is None else "failed"
    if as_json:
        emit_json({"selected": choice.name, "selected_by": choice.origin, "engines": entries})
    else:
        table = Table(show_edge=False, pad_edge=False)
        for column in ("NAME", "STATUS", "SOURCE", "DESCRIPTION"):
            table.add_column(column, overflow="fold")
        for record in registry:
            status = record.status.value
            table.add_row(
                record.name,
                f"[{_STYLE[status]}]{status}[/]",
                str(record.source),
                record.reason or record.description,
            )
        out.print(table)
        out.print(f"\nselected: [bold]{choice.name}[/] (by {choice.origin})", highlight=False)
        for name, problem in checks.items():
            out.print(
                f"check {name}: " + ("[green]ok[/]" if problem is None else f"[red]{problem}[/]")
            )
    if any(problem is not None for problem in checks.values()):
        ctx.exit(1)

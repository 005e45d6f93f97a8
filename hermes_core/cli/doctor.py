"""``hermes-context doctor [NAME]``: load an engine, validate it, run the contract kit on it."""

from __future__ import annotations

import os
import tempfile

import click

from hermes_core.cli.common import discover
from hermes_core.cli.output import out
from hermes_core.errors import EngineError, EngineIncompatibleError, EngineNotFoundError

__all__ = ["command"]

_WHAT_TO_DO = {
    EngineNotFoundError: "install the distribution that provides it (pip install ...)",
    EngineIncompatibleError: "install a version of the engine that supports this hermes-context",
}


@click.command("doctor")
@click.argument("name", required=False)
@click.pass_context
def command(ctx: click.Context, name: str | None) -> None:
    """Check engine NAME (default: the selected one) and run the contract kit against it."""
    registry = discover(ctx)
    name = name or registry.config.engine.name
    out.print(f"doctor: engine [bold]{name}[/]", highlight=False)
    try:
        engine = registry.create_engine(name)
    except EngineError as exc:
        hint = next(
            (text for kind, text in _WHAT_TO_DO.items() if isinstance(exc, kind)),
            "fix the engine (its import, constructor or method signatures), then run doctor again",
        )
        out.print(f"  [red]x[/] {exc}\n    what to do: {hint}", highlight=False)
        ctx.exit(1)
    record = registry.get(name)
    out.print(f"  [green]ok[/] loads from {record.source if record else '?'}", highlight=False)
    out.print(f"  [green]ok[/] signatures fit the hookspecs; name is '{engine.name}'")
    try:
        import pytest
    except ImportError:
        out.print(
            "  [yellow]![/] pytest is not installed: pip install pytest to run the contract kit"
        )
        ctx.exit(1)
    with tempfile.TemporaryDirectory() as folder:
        previous = os.getcwd()
        os.chdir(folder)  # collect the contract suite only, not the current project's tests
        try:
            code = pytest.main(
                ["-q", "-p", "no:cacheprovider", "-o", "addopts=", "--hermes-engine", name]
            )
        finally:
            os.chdir(previous)
    if code == 0:
        out.print("  [green]ok[/] the contract kit passes")
    else:
        out.print(
            "  [red]x[/] the contract kit found problems (above); each failing test is named "
            "after the rule it checks: see hermes_core.testing.ContextEngineContract"
        )
        ctx.exit(1)

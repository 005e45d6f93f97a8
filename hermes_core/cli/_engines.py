"""``hermes-context engines``: every engine found, and the config sections they declare checked."""

from __future__ import annotations

from typing import Any

import click
from rich.table import Table
from rich.text import Text

from hermes_core._errors import EngineError
from hermes_core._names import DEFAULT_ENGINE
from hermes_core.cli._common import USE_CONFIG_HELP, load, scratch_registry
from hermes_core.cli._config_check import section_problems
from hermes_core.cli._output import cell, emit_json, out, say
from hermes_core.config._sections import report_problems
from hermes_core.registry import EngineRegistry
from hermes_core.registry._activation import source_problem

__all__ = ["command"]

_STYLE = {
    "selected": "bold green",
    "available": "green",
    "duplicate": "yellow",
    "shadowed": "yellow",
    "incompatible": "red",
    "broken": "red",
    "needs-hermes-agent": "yellow",
    "missing": "bold red",
}


def selection_problem(registry: EngineRegistry) -> str | None:
    """Why the configured engine cannot be used (the host falls back), or None.

    Decided from metadata: an engine that fails only when imported shows up
    with ``--check`` or ``doctor``.
    """
    choice = registry.config.engine
    record = registry.get(choice.name)
    if not choice.valid:
        return f"{choice.name!r} is not an engine name"
    if record is None:
        failed = registry.failed_plugins()
        if failed:
            return (
                "no source registers it; these plugins failed to load and may be what "
                f"provides it: {'; '.join(failed)}"
            )
        return "it is not installed"
    if not record.status.usable:
        return f"it is {record.status.value}: {record.reason}"
    return source_problem(registry, choice.name)


@click.command("engines")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@click.option(
    "--check",
    is_flag=True,
    help="Import every engine and validate it against the hookspecs (exit 1 if one fails, "
    "or the selected engine cannot be used). "
    "Engines are created in a throwaway HERMES_HOME with default settings.",
)
@click.option("--use-config", is_flag=True, help=USE_CONFIG_HELP)
@click.pass_context
def command(ctx: click.Context, as_json: bool, check: bool, use_config: bool) -> None:
    """List every engine found: name, source, status, description.

    Reads metadata, and imports each engine's class (never builds it) to check the
    config sections it declares; --check also builds and validates each one.
    """
    config = load(ctx)
    with scratch_registry(ctx, use_config, config) as scratch:
        registry = scratch.registry
        config_problems = section_problems(config, registry)
        report_problems(config_problems, strict=False)  # shown once, however often read
        checks: dict[str, str | None] = {}
        if check:
            for record in registry:
                if record.status.usable:
                    try:
                        scratch.create_engine(record.name)
                        checks[record.name] = None
                    except EngineError as exc:
                        checks[record.name] = str(exc)
    choice = registry.config.engine
    problem = selection_problem(registry)
    # with context.strict the host raises rather than fall back: it uses no engine
    fallback = None if registry.config.strict else DEFAULT_ENGINE
    used = choice.name if problem is None else fallback
    entries: list[dict[str, Any]] = [record.as_dict() for record in registry]
    for entry in entries:
        if entry["name"] in checks:
            entry["check"] = "ok" if checks[entry["name"]] is None else "failed"
    if as_json:
        emit_json(
            {
                "selected": choice.name,
                "selected_by": choice.origin,
                "selection_problem": problem,
                "used": used,
                "config_problems": [str(problem) for problem in config_problems],
                "engines": entries,
            }
        )
    else:
        table = Table(show_edge=False, pad_edge=False)
        for column in ("NAME", "STATUS", "SOURCE", "DESCRIPTION"):
            table.add_column(column, overflow="fold")
        if problem is not None and registry.get(choice.name) is None:
            table.add_row(cell(choice.name), Text("missing", _STYLE["missing"]), "-", cell(problem))
        for record in registry:
            status = record.status.value
            table.add_row(
                cell(record.name),
                Text(status, _STYLE[status]),
                cell(record.source),
                cell(record.reason or record.summary()),
            )
        out.print(table)
        say("\nselected: [bold]{name}[/] (by {origin})", name=choice.name, origin=choice.origin)
        if problem is not None and registry.config.strict:
            say(
                "[bold red]cannot use {name}[/]: {problem}; with context.strict the host "
                "raises instead of using another engine. Install it, or run: "
                "hermes-context select NAME",
                name=choice.name,
                problem=problem,
            )
        elif problem is not None:
            say(
                "[bold red]cannot use {name}[/]: {problem}; the host uses [bold]{used}[/] "
                "instead. Install it, or run: hermes-context select NAME",
                name=choice.name,
                problem=problem,
                used=used,
            )
        for name, failure in checks.items():
            if failure is None:
                say("check {name}: [green]ok[/]", name=name)
            else:
                say("check {name}: [red]{failure}[/]", name=name, failure=failure)
    if check and (problem is not None or any(f is not None for f in checks.values())):
        ctx.exit(1)

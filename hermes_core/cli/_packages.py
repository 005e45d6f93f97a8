"""``hermes-context install`` / ``uninstall``: pip in this interpreter, then what changed.

Like ``llm install``: the engine lands in the environment the host runs in,
whatever ``pip`` on the PATH belongs to, and the command says which engines
were added or removed, so nobody has to compare listings by hand.
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Sequence

import click
from packaging.requirements import InvalidRequirement, Requirement
from packaging.utils import canonicalize_name

from hermes_core.cli._common import discover
from hermes_core.cli._output import fail, out, say
from hermes_core.registry import EngineStatus

__all__ = ["install", "uninstall"]


def _project(requirement: str) -> str:
    """The normalised project name a requirement names (``hermes.context``,
    ``Hermes_Context==0.1.0`` and ``hermes-context[plot]`` all name ``hermes-context``)."""
    try:
        name = Requirement(requirement).name
    except InvalidRequirement:
        name = re.split(r"[\s<>=!~;@\[(]", requirement.strip(), maxsplit=1)[0]
    return canonicalize_name(name)


def _engines(ctx: click.Context) -> dict[tuple[str, str], str]:
    """Every registration: (engine name, source) -> status."""
    return {(r.name, str(r.source)): r.status.value for r in discover(ctx)}


def _pip(arguments: Sequence[str]) -> None:
    command = [sys.executable, "-m", "pip", *arguments]
    out.print(f"running: {' '.join(command)}", highlight=False, markup=False, soft_wrap=True)
    code = subprocess.call(command, stdout=sys.stderr)  # pip's chatter is not our output
    if code != 0:
        fail(f"pip exited with {code} (its messages are above); nothing else was changed", code)


def _report(ctx: click.Context, before: dict[tuple[str, str], str], verb: str) -> None:
    after = _engines(ctx)
    added = [key for key in after if key not in before]
    removed = [key for key in before if key not in after]
    for (name, source), status in ((key, after[key]) for key in added):
        note = "" if status in ("available", "selected") else f" [{status}]"
        say("added engine [bold]{name}[/] ({source}){note}", name=name, source=source, note=note)
    for name, source in removed:
        say("removed engine [bold]{name}[/] ({source})", name=name, source=source)
    if not added and not removed:
        say("no engine was {verb}: the list of engines is unchanged", verb=verb)
    registry = discover(ctx)
    choice = registry.config.engine
    record = registry.get(choice.name)
    if record is None or record.status not in (EngineStatus.AVAILABLE, EngineStatus.SELECTED):
        say(
            "[yellow]the selected engine {name} (by {origin}) is not usable now; the host "
            "uses compressor. Run: hermes-context select NAME[/]",
            name=choice.name,
            origin=choice.origin,
        )
    elif added and choice.name not in {name for name, _ in added}:
        say("to use it: hermes-context select {name}", name=added[0][0])


@click.command("install")
@click.argument("packages", nargs=-1)
@click.option(
    "-e",
    "--editable",
    "editables",
    multiple=True,
    metavar="PATH",
    help="Install the project at PATH in editable mode (repeatable), as pip install -e.",
)
@click.option(
    "-r",
    "--requirement",
    "requirements",
    multiple=True,
    metavar="FILE",
    type=click.Path(exists=True, dir_okay=False),
    help="Install what requirements FILE lists (repeatable), as pip install -r.",
)
@click.option("-U", "--upgrade", is_flag=True, help="Upgrade the packages if installed.")
@click.option("--pre", is_flag=True, help="Consider pre-release and development versions.")
@click.pass_context
def install(
    ctx: click.Context,
    packages: tuple[str, ...],
    editables: tuple[str, ...],
    requirements: tuple[str, ...],
    upgrade: bool,
    pre: bool,
) -> None:
    """pip install PACKAGES into this interpreter, then list the engines they added.

    PACKAGES are anything pip takes: hermes-engine-lcm, a wheel file, a folder;
    -e PATH and -r FILE as with pip.
    """
    if not (packages or editables or requirements):
        fail("nothing to install: name PACKAGES, -e PATH or -r FILE")
    if any(package.startswith("-") for package in packages):
        fail("PACKAGES are names, files or folders, never pip options: use this command's own")
    arguments = [
        *(["--upgrade"] if upgrade else []),
        *(["--pre"] if pre else []),
        *(part for path in editables for part in ("--editable", path)),
        *(part for path in requirements for part in ("--requirement", path)),
        *packages,
    ]
    before = _engines(ctx)
    _pip(["install", *arguments])
    _report(ctx, before, "added")


@click.command("uninstall")
@click.argument("distributions", nargs=-1, required=True)
@click.pass_context
def uninstall(ctx: click.Context, distributions: tuple[str, ...]) -> None:
    """pip uninstall DISTRIBUTIONS from this interpreter, then list the engines removed."""
    if any(name.startswith("-") for name in distributions):
        # pip would read "-r FILE" as a list of names, hermes-context among them
        fail("DISTRIBUTIONS are names, never pip options (-r FILE, ...): name each one")
    if any(_project(name) == "hermes-context" for name in distributions):
        fail("hermes-context runs this command; uninstall it with pip directly")
    before = _engines(ctx)
    _pip(["uninstall", "--yes", *distributions])
    _report(ctx, before, "removed")

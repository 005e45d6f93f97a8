"""``hermes-context select NAME``: write context.engine into the config file, keeping the rest."""

from __future__ import annotations

import stat
from pathlib import Path

import click

from hermes_core.cli.common import discover
from hermes_core.cli.output import fail, out
from hermes_core.config.editing import ConfigEditError, set_context_engine, write_config_text
from hermes_core.names import ENGINE_NAME_RULE, is_valid_engine_name
from hermes_core.registry import EngineStatus

__all__ = ["command"]


@click.command("select")
@click.argument("name")
@click.pass_context
def command(ctx: click.Context, name: str) -> None:
    """Select engine NAME in config.yaml (it must be installed and compatible)."""
    if not is_valid_engine_name(name):
        fail(f"{name!r} is not {ENGINE_NAME_RULE}")
    registry = discover(ctx)
    record = registry.get(name)
    if record is None:
        known = ", ".join(registry.names()) or "none"
        fail(
            f"engine '{name}' is not installed (installed: {known}); pip install the "
            "distribution that provides it"
        )
    if record.status in (
        EngineStatus.INCOMPATIBLE,
        EngineStatus.BROKEN,
        EngineStatus.NEEDS_HERMES_AGENT,
    ):
        fail(f"engine '{name}' ({record.source}) is {record.status.value}: {record.reason}")
    config = registry.config
    path = Path(config.path or (config.home / "config.yaml"))
    if path.exists() and not path.stat().st_mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH):
        fail(
            f"{path} is read-only (mode {stat.S_IMODE(path.stat().st_mode):04o}): not changed; "
            f"make it writable (chmod u+w) or set context.engine: {name} there by hand"
        )
    try:
        # bytes, not read_text: its newline translation would rewrite a CRLF file
        text = path.read_bytes().decode("utf-8") if path.exists() else ""
        edited = set_context_engine(text, name)
    except (OSError, UnicodeDecodeError) as exc:
        fail(f"{path}: cannot read it ({exc})")
    except ConfigEditError as exc:
        fail(f"{path}: not changed: {exc}; set context.engine: {name} there by hand")
    write_config_text(path, edited)
    out.print(f"selected [bold]{name}[/] ({record.source}) in {path}", highlight=False)

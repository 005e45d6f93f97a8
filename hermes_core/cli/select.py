"""``hermes-context select NAME``: write context.engine into the config file, keeping the rest."""

from __future__ import annotations

from pathlib import Path

import click
import yaml

from hermes_core.cli.common import discover
from hermes_core.cli.output import fail, out
from hermes_core.config.yaml_source import YamlSyntaxError, parse_yaml
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
    if record.status in (EngineStatus.INCOMPATIBLE, EngineStatus.BROKEN):
        fail(f"engine '{name}' ({record.source}) is {record.status.value}: {record.reason}")
    config = registry.config
    path = config.path or (config.home / "config.yaml")
    data: dict[str, object] = {}
    if Path(path).exists():
        try:
            loaded = parse_yaml(Path(path).read_text(encoding="utf-8"))
        except YamlSyntaxError as exc:
            where = f"{path}:{exc.line}" if exc.line else str(path)
            fail(f"{where}: {exc}; fix the file before selecting an engine")
        if loaded is not None and not isinstance(loaded, dict):
            fail(f"{path}: expected a mapping of sections; fix the file first")
        data = loaded or {}
    context = data.get("context")
    if not isinstance(context, dict):
        context = {}
    context["engine"] = name
    data["context"] = context
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    Path(path).write_text(
        yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8"
    )
    out.print(f"selected [bold]{name}[/] ({record.source}) in {path}", highlight=False)

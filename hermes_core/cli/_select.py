"""``hermes-context select NAME``: write context.engine into the config file, keeping the rest."""

from __future__ import annotations

import stat
from pathlib import Path

import click

from hermes_core import _discovery as discovery
from hermes_core._names import ENGINE_NAME_RULE, is_valid_engine_name
from hermes_core.cli._common import discover, not_installed
from hermes_core.cli._output import fail, say
from hermes_core.config import HermesConfig, load_config
from hermes_core.config._editing import ConfigEditError, set_context_engine
from hermes_core.config._enabling import enable_plugin
from hermes_core.config._writing import ConfigChangedError, edit_config_file
from hermes_core.registry import EngineRecord, EngineRegistry, EngineStatus

__all__ = ["command"]


@click.command("select")
@click.argument("name")
@click.option(
    "--create",
    is_flag=True,
    help="Create the config file's folder when it does not exist (otherwise refused).",
)
@click.pass_context
def command(ctx: click.Context, name: str, create: bool) -> None:
    """Select engine NAME in config.yaml (it must be installed and compatible).

    A plugin present but not in plugins.enabled that registers NAME is enabled in the
    same edit, and the command says so.
    """
    if not is_valid_engine_name(name):
        fail(f"{name!r} is not {ENGINE_NAME_RULE}")
    registry = discover(ctx)
    record = registry.get(name)
    enable: str | None = None
    if record is None:
        enable, record = _enabling(registry, name)
    if record is None:
        fail(f"{not_installed(name, registry)}; pip install the distribution that provides it")
    if record.status in (
        EngineStatus.INCOMPATIBLE,
        EngineStatus.BROKEN,
        EngineStatus.NEEDS_HERMES_AGENT,
    ):
        fail(f"engine '{name}' ({record.source}) is {record.status.value}: {record.reason}")
    config = registry.config
    path = Path(config.path or (config.home / "config.yaml"))
    # the home's own config.yaml: a first run makes the home (~/.hermes) as Hermes would;
    # a path the user named must exist, or be asked for with --create
    named = config.path is not None and path != config.home / "config.yaml"
    if not path.parent.is_dir() and not (create or not named):
        fail(
            f"{path.parent} does not exist: {path} was not created; check the path "
            "(--config, $HERMES_CONFIG, $HERMES_HOME), or pass --create to create it"
        )
    if named and not path.exists() and not create:
        fail(
            f"{path} does not exist: not created; check the path (--config, $HERMES_CONFIG), "
            "or pass --create to create it"
        )
    if path.exists() and not path.stat().st_mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH):
        fail(
            f"{path} is read-only (mode {stat.S_IMODE(path.stat().st_mode):04o}): not changed; "
            f"make it writable (chmod u+w) or set context.engine: {name} there by hand"
        )

    def edit(text: str) -> str:
        return set_context_engine(enable_plugin(text, enable) if enable else text, name)

    try:  # made again from the new text when another process changed the file meanwhile
        edit_config_file(path, edit)
    except (OSError, UnicodeDecodeError) as exc:
        fail(f"{path}: cannot read or write it ({exc})")
    except ConfigEditError as exc:
        fail(f"{path}: not changed: {exc}; set context.engine: {name} there by hand")
    except ConfigChangedError as exc:
        fail(str(exc))
    say("selected [bold]{name}[/] ({source}) in {path}", name=name, source=record.source, path=path)
    if enable:
        say("enabled plugin [bold]{plugin}[/] in plugins.enabled there", plugin=enable)
    _say_what_overrides(config, name)


def _enabling(registry: EngineRegistry, name: str) -> tuple[str | None, EngineRecord | None]:
    """A plugin present but not enabled that registers engine ``name``, once enabled: its
    name and the engine's record (``None, None`` when none does). Each candidate is loaded,
    as enabling it would."""
    config = registry.config
    for plugin, _ in registry.not_enabled_plugins(name):
        enabled = [*config.enabled_plugins, plugin]
        trial = load_config(
            config.path or {}, env=config.env, overrides={"plugins": {"enabled": enabled}}
        )
        record = discovery.discover(trial).get(name)
        if record is not None and record.status.usable and record.source.plugin == plugin:
            return plugin, record
    return None, None


def _say_what_overrides(config: HermesConfig, name: str) -> None:
    """The file now names ``name``; say so when the environment selects something else."""
    choice = config.engine
    if not choice.from_file and choice.origin != "the default" and choice.name != name:
        say(
            "[yellow]but {origin} selects {chosen}, and it wins over the file: unset it "
            "to use {name}[/]",
            origin=choice.origin,
            chosen=choice.name,
            name=name,
        )

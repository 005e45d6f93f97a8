"""What several commands share: loading the configuration and discovering engines."""

from __future__ import annotations

import difflib
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import click

from hermes_core import discovery
from hermes_core.config import HermesConfig, load_config
from hermes_core.registry import EngineRegistry

__all__ = [
    "USE_CONFIG_HELP",
    "discover",
    "engine_config",
    "load",
    "not_installed",
    "scratch_registry",
]

#: What ``--use-config`` does, for every command that offers it.
USE_CONFIG_HELP = (
    "Run engines with the settings in your config.yaml (their sections), instead of their "
    "defaults; their state (databases) still goes to a throwaway home."
)


def load(ctx: click.Context) -> HermesConfig:
    """The configuration named by ``--config`` (or the default location)."""
    return load_config(ctx.obj.get("config_path") if ctx.obj else None)


def discover(ctx: click.Context) -> EngineRegistry:
    """Every engine, for the configuration of this invocation."""
    return discovery.discover(load(ctx))


@contextmanager
def scratch_registry(
    ctx: click.Context, use_config: bool = False, config: HermesConfig | None = None
) -> Iterator[EngineRegistry]:
    """Every engine, created in a throwaway ``$HERMES_HOME``, with default settings or, with
    ``use_config``, the user's (see :meth:`~hermes_core.HermesConfig.isolated`).

    For commands that check engines: nothing they do reads or writes the
    user's own state. The directory is removed afterwards. ``config``: the one the
    command already loaded (default: load it).
    """
    registry = discovery.discover(config) if config is not None else discover(ctx)
    # an engine's background thread may still write there as it goes: a leftover file in
    # the temporary folder is no reason to fail the command
    with tempfile.TemporaryDirectory(
        prefix="hermes-context-check-", ignore_cleanup_errors=True
    ) as scratch:
        yield registry.with_config(registry.config.isolated(Path(scratch), settings=use_config))


def not_installed(name: str, registry: EngineRegistry) -> str:
    """``name`` is no installed engine: the installed ones, and the closest as a guess."""
    names = registry.names()
    close = difflib.get_close_matches(name, names, n=1, cutoff=0.5)
    guess = f"; did you mean {close[0]!r}?" if close else ""
    return f"engine {name!r} is not installed{guess} (installed: {', '.join(names) or 'none'})"


def engine_config(config: HermesConfig, name: str) -> HermesConfig:
    """``config`` (read again from its file, or its mapping) with engine ``name`` selected
    and strict: a command that names an engine runs that one or says why, never another."""
    source = config.path if config.text is not None else config.data
    return load_config(source, env=config.env, strict=True, overrides={"context": {"engine": name}})

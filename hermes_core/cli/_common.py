"""What several commands share: loading the configuration and discovering engines."""

from __future__ import annotations

import difflib
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import click

from hermes_core import _discovery as discovery
from hermes_core._engine import ContextEngine
from hermes_core.config import HermesConfig, load_config
from hermes_core.host._bounded import run_bounded
from hermes_core.host._pool import host_pool
from hermes_core.registry import EngineRegistry

__all__ = [
    "USE_CONFIG_HELP",
    "Scratch",
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


@dataclass
class Scratch:
    """The registry of a check, creating engines in a throwaway ``$HERMES_HOME``, and the
    engines it created there (closed before that home is removed)."""

    registry: EngineRegistry
    created: list[ContextEngine] = field(default_factory=list)

    def create_engine(self, name: str) -> ContextEngine:
        """:meth:`EngineRegistry.create_engine`, remembering the engine to close it."""
        engine = self.registry.create_engine(name)
        self.created.append(engine)
        return engine

    def close_created(self) -> None:
        """Close every engine created, as the host closes its own: each ``close`` within
        ``compression.hook_timeout_seconds``, what it raises or a late one left behind."""
        limit = float(self.registry.config.value("compression.hook_timeout_seconds"))
        pool = host_pool()
        for engine in self.created:
            run_bounded(pool, limit, engine.close)
        self.created.clear()
        pool.shutdown()


@contextmanager
def scratch_registry(
    ctx: click.Context, use_config: bool = False, config: HermesConfig | None = None
) -> Iterator[Scratch]:
    """Every engine, created in a throwaway ``$HERMES_HOME``, with default settings or, with
    ``use_config``, the user's (see :meth:`~hermes_core.HermesConfig.isolated`).

    For commands that check engines: nothing they do reads or writes the
    user's own state. Engines created through :meth:`Scratch.create_engine` are closed
    and the directory is removed afterwards. ``config``: the one the command already
    loaded (default: load it).
    """
    registry = discovery.discover(config) if config is not None else discover(ctx)
    # a late engine's background thread may still write there as it goes: a leftover
    # file in the temporary folder is no reason to fail the command
    with tempfile.TemporaryDirectory(
        prefix="hermes-context-check-", ignore_cleanup_errors=True
    ) as scratch:
        checked = Scratch(
            registry.with_config(registry.config.isolated(Path(scratch), settings=use_config))
        )
        try:
            yield checked
        finally:
            checked.close_created()


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

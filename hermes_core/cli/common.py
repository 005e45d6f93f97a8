"""What several commands share: loading the configuration and discovering engines."""

from __future__ import annotations

import click

from hermes_core.config import HermesConfig, load_config
from hermes_core.registry import EngineRegistry

__all__ = ["discover", "load"]


def load(ctx: click.Context) -> HermesConfig:
    """The configuration named by ``--config`` (or the default location)."""
    return load_config(ctx.obj.get("config_path") if ctx.obj else None)


def discover(ctx: click.Context) -> EngineRegistry:
    """Every engine, for the configuration of this invocation."""
    return EngineRegistry.discover(load(ctx))

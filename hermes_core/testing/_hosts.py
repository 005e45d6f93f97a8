"""Building a ContextHost around one engine, without installing it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from hermes_core._engine import ContextEngine
from hermes_core.config import load_config
from hermes_core.host import ContextHost
from hermes_core.registry import EngineRecord, EngineRegistry, EngineSource, EngineStatus

__all__ = ["host_for"]


def host_for(
    engine: Any,
    name: str | None = None,
    config: Mapping[str, Any] | None = None,
    env: Mapping[str, str] | None = None,
) -> ContextHost:
    """A host whose registry holds only ``engine`` (a class, factory or instance), selected.

    ``name`` defaults to ``engine.name`` (a class or factory is called once,
    with no arguments, to read it). ``config`` is merged under ``context.engine``;
    ``env`` defaults to an empty environment, so the machine's variables do
    not leak into tests.
    """
    if name is None:
        sample = engine if isinstance(engine, ContextEngine) else engine()
        name = sample.name
    data = {k: dict(v) if isinstance(v, Mapping) else v for k, v in (config or {}).items()}
    data.setdefault("context", {})["engine"] = name
    env = {} if env is None else env
    record = EngineRecord(
        name,
        EngineSource("general_plugin", plugin="hermes_core.testing"),
        EngineStatus.AVAILABLE,
        load=lambda: engine,
    )
    return ContextHost(EngineRegistry([record], load_config(data, env=env)), env=env)

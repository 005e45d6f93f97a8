"""Source 3: general plugins (entry-point group ``hermes.plugins``) that register engines.

A general plugin is loaded only when its name is in ``plugins.enabled``. It
registers engines either seed-style, from a module-level ``register(ctx)``
calling ``ctx.register_context_engine(engine_or_factory)``, or pluggy-style,
with a ``register_context_engines(register)`` hook implementation. A plugin
that is missing or raises is logged and skipped; the others still load.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Collection, Iterable, Sequence
from functools import partial
from typing import TYPE_CHECKING, Any

import importlib_metadata
import pluggy

from hermes_core._containment import call_with_limit, reraise_user_interrupt
from hermes_core._engine import ContextEngine
from hermes_core._log import logger
from hermes_core._names import ENGINE_NAME_RULE, is_valid_engine_name
from hermes_core.hooks import _specs as hookspecs
from hermes_core.hooks._markers import PROJECT_NAME
from hermes_core.registry._records import EngineRecord, EngineSource, EngineStatus
from hermes_core.sources._entry_points import PLUGIN_GROUP, DeclaredEntryPoint

if TYPE_CHECKING:
    from hermes_core.sources._source import DiscoveryContext

__all__ = ["GeneralPluginSource", "PluginContext", "general_plugin_records", "new_plugin_manager"]


def _engine_name(obj: object) -> str | None:
    """The name an engine object will report, where it can be known without calling anything."""
    if isinstance(obj, ContextEngine):
        return obj.name
    if inspect.isclass(obj):
        declared = inspect.getattr_static(obj, "name", None)
        if isinstance(declared, str):
            return declared
    return None


class PluginContext:
    """What a general plugin's ``register(ctx)`` receives."""

    def __init__(self, plugin: str, source: EngineSource, sink: list[EngineRecord]) -> None:
        self.plugin = plugin
        self._source = source
        self._sink = sink

    def register_context_engine(self, engine: Any, name: str | None = None) -> None:
        """Register a context engine: an instance, a ``ContextEngine`` subclass or a factory.

        ``name`` is needed for factories and for classes whose ``name`` is a
        property; for instances it defaults to ``engine.name``. A name that is
        already registered is rejected with ``context_engine.duplicate_rejected``.
        """
        resolved = name if name is not None else _engine_name(engine)
        if resolved is None:
            raise ValueError(
                f"general plugin '{self.plugin}': register_context_engine({engine!r}) cannot "
                "tell the engine's name without calling it; pass name='...'"
            )
        if not isinstance(resolved, str) or not is_valid_engine_name(resolved):
            # one name rule for every source: this name could never be selected safely
            logger.warning(
                "context_engine.invalid_name",
                name=repr(resolved)[:80],
                source=str(self._source),
                expected=ENGINE_NAME_RULE,
            )
            return
        self._sink.append(
            EngineRecord(
                name=resolved,
                source=self._source,
                status=EngineStatus.AVAILABLE,
                description=(inspect.getdoc(engine) or "").split("\n", 1)[0],
                version=self._source.version,
                load=lambda: engine,
            )
        )


def new_plugin_manager() -> pluggy.PluginManager:
    """A plugin manager for general plugins, knowing :class:`~hermes_core.hooks.PluginSpec`."""
    manager = pluggy.PluginManager(PROJECT_NAME)
    manager.add_hookspecs(hookspecs.PluginSpec)
    return manager


def general_plugin_records(
    enabled: Sequence[str],
    installed: Iterable[DeclaredEntryPoint],
    manager: pluggy.PluginManager,
    elsewhere: Collection[str] = (),
    register_timeout: float = 0,
) -> list[EngineRecord]:
    """Load the enabled general plugins into ``manager`` in order; return their engines.

    An enabled name that is no general plugin is reported missing, unless it
    is in ``elsewhere`` (a Hermes Agent plugin, say). Each plugin's import and
    registration get ``register_timeout`` seconds (0: no limit); a plugin past
    it is reported broken and registers nothing.
    """
    if not enabled:
        return []
    by_name: dict[str, DeclaredEntryPoint] = {}
    for item in installed:
        by_name.setdefault(item.entry_point.name, item)
    records: list[EngineRecord] = []
    for plugin_name in enabled:
        declared = by_name.get(plugin_name)
        if declared is None and plugin_name in elsewhere:
            continue
        if declared is None:
            logger.warning(
                "hermes_plugin.missing",
                plugin=plugin_name,
                group=PLUGIN_GROUP,
                hint="install the distribution that provides it (a general plugin, or a Hermes "
                "Agent plugin in $HERMES_HOME/plugins), or remove it from plugins.enabled",
            )
            continue
        source = EngineSource(
            "general_plugin",
            distribution=declared.distribution.name,
            version=declared.distribution.version,
            plugin=plugin_name,
        )
        found: list[EngineRecord] = []
        context = PluginContext(plugin_name, source, found)
        point = declared.entry_point
        try:
            call_with_limit(
                partial(_load_one, manager, plugin_name, point, context),
                register_timeout,
                f"general plugin {plugin_name}",
            )
            records += found
        except BaseException as exc:
            reraise_user_interrupt(exc)
            logger.warning(
                "hermes_plugin.broken",
                plugin=plugin_name,
                source=str(source),
                error=f"{type(exc).__name__}: {exc}",
            )
    return records


def _load_one(
    manager: pluggy.PluginManager,
    plugin_name: str,
    entry_point: importlib_metadata.EntryPoint,
    context: PluginContext,
) -> None:
    plugin = entry_point.load()
    register: Callable[[PluginContext], None] | None = getattr(plugin, "register", None)
    if callable(register):
        register(context)
    manager.register(plugin, name=plugin_name)
    others = [p for p in manager.get_plugins() if p is not plugin]
    caller = manager.subset_hook_caller("register_context_engines", remove_plugins=others)
    caller(register=lambda name, engine: context.register_context_engine(engine, name=name))


class GeneralPluginSource:
    """Engines that general plugins (group ``hermes.plugins``) named in ``plugins.enabled``
    register, in that order."""

    name = "general plugins"

    def records(self, context: DiscoveryContext) -> list[EngineRecord]:
        return general_plugin_records(
            context.config.enabled_plugins,
            context.installed.plugins,
            context.plugin_manager,
            elsewhere=context.accounted_for,
            register_timeout=context.register_timeout,
        )

"""Discovery: the engines every source finds, in one registry.

The sources, in the order of precedence (the first registration of a name is
kept; see :class:`~hermes_core.registry.EngineRegistry`):

1. :class:`~hermes_core.sources._entry_points.EntryPointSource`: distributions'
   ``hermes.context_engines`` entry points;
2. :class:`~hermes_core.sources._directories.DirectorySource`: engine folders,
   the plugin guide's ``plugins/context_engine/<name>/`` layout;
3. :class:`~hermes_core.sources._general_plugins.GeneralPluginSource`: general
   plugins named in ``plugins.enabled``;
4. :class:`~hermes_core.sources.hermes_plugins._plugins.HermesPluginSource`: Hermes Agent
   plugins named in ``plugins.enabled``.

Discovery reads metadata only: no engine module is imported until that engine
is created, except the plugins a user enabled by name, whose ``register`` runs
to say which engines they register.
"""

from __future__ import annotations

from collections.abc import Sequence

from hermes_core.config import HermesConfig, load_config
from hermes_core.registry import EngineRegistry
from hermes_core.sources._directories import DirectorySource
from hermes_core.sources._entry_points import EntryPointSource
from hermes_core.sources._general_plugins import GeneralPluginSource, new_plugin_manager
from hermes_core.sources._source import DiscoveryContext, Source
from hermes_core.sources.hermes_plugins._plugins import HermesPluginSource, not_enabled_providers

__all__ = ["default_sources", "discover"]


def default_sources(*, hermes_plugins: bool = True) -> list[Source]:
    """The sources in their order of precedence; ``hermes_plugins=False`` leaves out
    Hermes Agent plugins (inside Hermes Agent they are Hermes' to load)."""
    sources: list[Source] = [EntryPointSource(), DirectorySource(), GeneralPluginSource()]
    if hermes_plugins:
        sources.append(HermesPluginSource())
    return sources


def discover(
    config: HermesConfig | None = None,
    *,
    hermes_plugins: bool = True,
    sources: Sequence[Source] | None = None,
) -> EngineRegistry:
    """Every engine the ``sources`` (default: :func:`default_sources`) find, for ``config``
    (default: :func:`~hermes_core.load_config`)."""
    config = load_config() if config is None else config
    chosen = (
        list(sources) if sources is not None else default_sources(hermes_plugins=hermes_plugins)
    )
    context = DiscoveryContext(config, new_plugin_manager())
    if not hermes_plugins:
        # inside Hermes Agent every enabled name may be one of Hermes' plugins: none is missing
        context.accounted_for |= set(config.enabled_plugins)
    for source in chosen:
        if isinstance(source, HermesPluginSource):
            context.accounted_for |= source.names(context)
    records = [record for source in chosen for record in source.records(context)]

    def not_enabled(name: str) -> list[tuple[str, str]]:
        found = not_enabled_providers(name, config.enabled_plugins, config.home, context.installed)
        return [(plugin.plugin, plugin.source) for plugin in found]

    return EngineRegistry(records, config, context.plugin_manager, not_enabled)

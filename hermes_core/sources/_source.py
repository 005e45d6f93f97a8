"""What every discovery source is: one small protocol, and what discovery hands each.

A source turns the configuration and what is installed into
:class:`~hermes_core.registry._records.EngineRecord` s. Discovery
(:func:`hermes_core._discovery.discover`) asks its sources in a list whose order
is the precedence: the first registration of a name is kept.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Protocol

import pluggy

from hermes_core.config import HermesConfig
from hermes_core.registry._records import EngineRecord
from hermes_core.sources._entry_points import InstalledEntryPoints, scan

__all__ = ["DiscoveryContext", "Source"]


@dataclass
class DiscoveryContext:
    """What one discovery shares between its sources: the configuration, the installed
    entry points (scanned once), the plugin manager general plugins are loaded into, and
    what one source tells the others."""

    config: HermesConfig
    plugin_manager: pluggy.PluginManager
    #: Enabled plugin names another source already accounts for (not "missing").
    accounted_for: set[str] = field(default_factory=set)

    @cached_property
    def installed(self) -> InstalledEntryPoints:
        """Every entry point of hermes' groups, read once from the installed metadata."""
        return scan()

    @property
    def register_timeout(self) -> float:
        """Seconds a plugin's import and ``register`` may take (0: no limit)."""
        return float(self.config.value("plugins.register_timeout_seconds"))


class Source(Protocol):
    """One place engines come from."""

    #: What it is called in messages and docs.
    name: str

    def records(self, context: DiscoveryContext) -> list[EngineRecord]:
        """Every engine registration this source finds, in its own order."""
        ...

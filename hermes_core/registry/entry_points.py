"""Source 1 and 3: engines and general plugins declared by installed distributions.

One ``importlib_metadata.entry_points()`` scan serves both groups; only the
metadata of distributions that declare an engine is read, and nothing is
imported.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import importlib_metadata
from packaging.utils import canonicalize_name

from hermes_core.names import is_valid_engine_name
from hermes_core.registry.compat import HERMES_DISTRIBUTION, requires_dist_conflict
from hermes_core.registry.records import EngineRecord, EngineSource, EngineStatus

__all__ = ["ENGINE_GROUP", "PLUGIN_GROUP", "InstalledEntryPoints", "engine_records", "scan"]

#: Entry-point group of context engines: name = engine name, value = class or factory.
ENGINE_GROUP = "hermes.context_engines"
#: Entry-point group of general plugins, loaded only when named in ``plugins.enabled``.
PLUGIN_GROUP = "hermes.plugins"


@dataclass(frozen=True)
class InstalledEntryPoints:
    """The entry points of both groups found by one scan."""

    engines: tuple[importlib_metadata.EntryPoint, ...]
    plugins: tuple[importlib_metadata.EntryPoint, ...]


def scan() -> InstalledEntryPoints:
    """Read the entry points of every distribution on ``sys.path`` once."""
    everything = importlib_metadata.entry_points()
    return InstalledEntryPoints(
        engines=tuple(everything.select(group=ENGINE_GROUP)),
        plugins=tuple(everything.select(group=PLUGIN_GROUP)),
    )


@dataclass(frozen=True)
class _Distribution:
    name: str
    version: str
    summary: str
    conflict: str | None

    @property
    def is_hermes(self) -> bool:
        return canonicalize_name(self.name) == HERMES_DISTRIBUTION


def distribution_of(
    entry_point: importlib_metadata.EntryPoint,
    cache: dict[int, _Distribution],
) -> _Distribution:
    """The metadata of the distribution declaring ``entry_point``, read once per scan."""
    dist = entry_point.dist
    if dist is None:
        return _Distribution("<unknown>", "", "", None)
    key = id(dist)
    if key not in cache:
        metadata = dist.metadata  # parses METADATA; read it once
        cache[key] = _Distribution(
            name=metadata["Name"] or "<unnamed>",
            version=metadata["Version"] or "",
            summary=metadata.get("Summary") or "",
            conflict=requires_dist_conflict(metadata.get_all("Requires-Dist")),
        )
    return cache[key]


def engine_records(entry_points: Iterable[importlib_metadata.EntryPoint]) -> list[EngineRecord]:
    """One record per engine entry point, in precedence order.

    hermes-core's own entry points come first, so no package can shadow the
    built-in default; the rest follow by canonical distribution name, then
    entry-point name.
    """
    cache: dict[int, _Distribution] = {}
    found = [(distribution_of(ep, cache), ep) for ep in entry_points]
    found.sort(key=lambda item: (not item[0].is_hermes, canonicalize_name(item[0].name), item[1].name))
    records = []
    for dist, ep in found:
        source = EngineSource("entry_point", distribution=dist.name, version=dist.version)
        status, reason = EngineStatus.AVAILABLE, None
        if not is_valid_engine_name(ep.name):
            status = EngineStatus.BROKEN
            reason = (
                f"entry point '{ep.name}' in group {ENGINE_GROUP} of {source} "
                "is not a valid engine name; rename it"
            )
        elif dist.conflict is not None:
            status, reason = EngineStatus.INCOMPATIBLE, dist.conflict
        records.append(
            EngineRecord(
                name=ep.name,
                source=source,
                status=status,
                description=dist.summary,
                version=dist.version,
                reason=reason,
                load=ep.load,
            )
        )
    return records

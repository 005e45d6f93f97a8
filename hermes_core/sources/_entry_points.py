"""Source 1 and 3: engines and general plugins declared by installed distributions.

One pass over the distributions on ``sys.path`` serves both entry-point
groups. It reads each distribution's ``entry_points.txt`` as text and parses
entry points and ``METADATA`` headers only for the distributions that declare
one of hermes' groups, so the scan costs less than one
``importlib.metadata.entry_points(group=...)`` call, which parses the entry
points of every distribution. Nothing is imported.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from dataclasses import dataclass
from email.parser import HeaderParser
from typing import TYPE_CHECKING, Protocol

import importlib_metadata
from packaging.utils import canonicalize_name

from hermes_core._names import is_valid_engine_name
from hermes_core.registry._compat import HERMES_DISTRIBUTION, requires_dist_conflict
from hermes_core.registry._records import EngineRecord, EngineSource, EngineStatus
from hermes_core.sources._docstrings import docstring_summary

if TYPE_CHECKING:
    from hermes_core.sources._source import DiscoveryContext

__all__ = [
    "ENGINE_GROUP",
    "HERMES_AGENT_GROUP",
    "PLUGIN_GROUP",
    "DeclaredEntryPoint",
    "EntryPointSource",
    "InstalledEntryPoints",
    "engine_records",
    "scan",
]

#: Entry-point group of context engines: name = engine name, value = class or factory.
ENGINE_GROUP = "hermes.context_engines"
#: Entry-point group of general plugins, loaded only when named in ``plugins.enabled``.
PLUGIN_GROUP = "hermes.plugins"
#: Entry-point group of Hermes Agent's plugins (some register a context engine).
HERMES_AGENT_GROUP = "hermes_agent.plugins"

_DECLARES_A_GROUP = re.compile(
    r"^\s*\[\s*(?:hermes\.(?:context_engines|plugins)|hermes_agent\.plugins)\s*\]", re.MULTILINE
)


@dataclass(frozen=True)
class Distribution:
    """The metadata hermes-context needs of a distribution that declares its entry points."""

    name: str
    version: str
    summary: str
    requires: tuple[str, ...]

    @property
    def is_hermes(self) -> bool:
        return canonicalize_name(self.name) == HERMES_DISTRIBUTION


@dataclass(frozen=True)
class DeclaredEntryPoint:
    """An entry point together with the distribution that declares it."""

    distribution: Distribution
    entry_point: importlib_metadata.EntryPoint


@dataclass(frozen=True)
class InstalledEntryPoints:
    """The entry points of the three groups found by one scan."""

    engines: tuple[DeclaredEntryPoint, ...]
    plugins: tuple[DeclaredEntryPoint, ...]
    hermes_agent_plugins: tuple[DeclaredEntryPoint, ...] = ()


class _Readable(Protocol):
    def read_text(self, filename: str) -> str | None: ...


def _read_distribution(dist: _Readable) -> Distribution:
    text = dist.read_text("METADATA") or dist.read_text("PKG-INFO") or ""
    headers = HeaderParser().parsestr(text)
    return Distribution(
        name=headers["Name"] or "<unnamed>",
        version=headers["Version"] or "",
        summary=headers["Summary"] or "",
        requires=tuple(headers.get_all("Requires-Dist") or ()),
    )


def scan() -> InstalledEntryPoints:
    """Find the entry points of the three groups on ``sys.path``.

    Like ``importlib.metadata``, when several copies of one distribution are
    on the path only the first one counts.
    """
    seen: set[str] = set()
    engines: list[DeclaredEntryPoint] = []
    plugins: list[DeclaredEntryPoint] = []
    hermes_agent_plugins: list[DeclaredEntryPoint] = []
    for dist in importlib_metadata.distributions():
        text = dist.read_text("entry_points.txt")
        if not text or not _DECLARES_A_GROUP.search(text):
            continue
        info = _read_distribution(dist)
        key = canonicalize_name(info.name)
        if key in seen:
            continue
        seen.add(key)
        for entry_point in dist.entry_points:
            if entry_point.group == ENGINE_GROUP:
                engines.append(DeclaredEntryPoint(info, entry_point))
            elif entry_point.group == PLUGIN_GROUP:
                plugins.append(DeclaredEntryPoint(info, entry_point))
            elif entry_point.group == HERMES_AGENT_GROUP:
                hermes_agent_plugins.append(DeclaredEntryPoint(info, entry_point))
    return InstalledEntryPoints(tuple(engines), tuple(plugins), tuple(hermes_agent_plugins))


def engine_records(declared: Iterable[DeclaredEntryPoint]) -> list[EngineRecord]:
    """One record per engine entry point, in precedence order.

    hermes-context's own entry points come first, so no package can shadow the
    built-in default; the rest follow by canonical distribution name, then
    entry-point name.
    """
    ordered = sorted(
        declared,
        key=lambda d: (
            not d.distribution.is_hermes,
            canonicalize_name(d.distribution.name),
            d.entry_point.name,
        ),
    )
    records = []
    for item in ordered:
        dist, ep = item.distribution, item.entry_point
        source = EngineSource("entry_point", distribution=dist.name, version=dist.version)
        status, reason = EngineStatus.AVAILABLE, None
        if not is_valid_engine_name(ep.name):
            status = EngineStatus.BROKEN
            reason = (
                f"entry point '{ep.name}' in group {ENGINE_GROUP} of {source} "
                "is not a valid engine name; rename it"
            )
        else:
            conflict = requires_dist_conflict(dist.requires)
            if conflict is not None:
                status, reason = EngineStatus.INCOMPATIBLE, conflict
        records.append(
            EngineRecord(
                name=ep.name,
                source=source,
                status=status,
                description=dist.summary,
                version=dist.version,
                reason=reason,
                load=ep.load,
                describe=functools.partial(docstring_summary, ep.value),
            )
        )
    return records


class EntryPointSource:
    """Engines declared in group ``hermes.context_engines`` of installed distributions:
    hermes-context's own first, then by distribution name."""

    name = "entry points"

    def records(self, context: DiscoveryContext) -> list[EngineRecord]:
        return engine_records(context.installed.engines)

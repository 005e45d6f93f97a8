"""What the registry knows about one registered engine, before and after import."""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

__all__ = ["EngineRecord", "EngineSource", "EngineStatus"]

SourceKind = Literal["entry_point", "directory", "general_plugin", "hermes_plugin"]


class EngineStatus(str, enum.Enum):
    """The state of a registered engine as a listing shows it."""

    SELECTED = "selected"
    AVAILABLE = "available"
    DUPLICATE = "duplicate"
    #: Registers a name that a plugin the user enabled by name (or ``context.engine_source``)
    #: takes: it could run, but the user's explicit choice does.
    SHADOWED = "shadowed"
    INCOMPATIBLE = "incompatible"
    BROKEN = "broken"
    #: Built on a part of Hermes Agent (its compressor), which is not installed here.
    NEEDS_HERMES_AGENT = "needs-hermes-agent"

    @property
    def usable(self) -> bool:
        """Whether an engine of this status can be created."""
        return self in (EngineStatus.SELECTED, EngineStatus.AVAILABLE)


@dataclass(frozen=True)
class EngineSource:
    """Where an engine registration came from.

    ``kind`` is the discovery source; ``distribution`` and ``version`` name
    the installed distribution (entry points, general plugins); ``path`` is
    the engine's directory (directory plugins, Hermes Agent plugin
    directories); ``plugin`` names the general or Hermes Agent plugin that
    registered it.
    """

    kind: SourceKind
    distribution: str | None = None
    version: str | None = None
    path: Path | None = None
    plugin: str | None = None

    @property
    def enabled_by_name(self) -> bool:
        """Whether it comes from a plugin the user named in ``plugins.enabled`` (the only
        plugins discovery loads)."""
        return self.kind in ("general_plugin", "hermes_plugin")

    def answers_to(self, key: str) -> bool:
        """Whether ``key`` (a ``context.engine_source`` value) names this source: its
        distribution, its plugin, or its folder (the path, or the folder's name)."""
        key = key.strip()
        names = {self.distribution, self.plugin}
        if self.path is not None:
            names |= {str(self.path), self.path.name}
        return key in names

    def __str__(self) -> str:
        dist = f"{self.distribution} {self.version}".strip() if self.distribution else ""
        if self.kind == "entry_point":
            return f"distribution {dist}"
        if self.kind == "directory":
            return f"directory {self.path}"
        suffix = f" from distribution {dist}" if dist else ""
        if self.kind == "hermes_plugin":
            where = f" in {self.path}" if self.path is not None else suffix
            return f"Hermes Agent plugin {self.plugin}{where}"
        return f"general plugin {self.plugin}{suffix}"


@dataclass
class EngineRecord:
    """One registration of an engine name.

    ``status`` and ``reason`` change when the engine is selected or fails to
    activate. ``load`` returns the registered object (a ``ContextEngine``
    subclass, instance or factory), importing it on first call; listing never
    calls it.
    """

    name: str
    source: EngineSource
    status: EngineStatus
    description: str = ""
    version: str | None = None
    reason: str | None = None
    load: Callable[[], Any] | None = field(default=None, repr=False, compare=False)
    #: Reads the engine's own description (its docstring) when a listing asks; None
    #: when there is nothing better than ``description``.
    describe: Callable[[], str | None] | None = field(default=None, repr=False, compare=False)

    def summary(self) -> str:
        """What the engine says of itself, else ``description`` (its distribution's summary).
        Read on demand, never by discovery: listing stays metadata only."""
        own = self.describe() if self.describe is not None else None
        return own or self.description

    def as_dict(self) -> dict[str, Any]:
        """A JSON-ready view for listings."""
        return {
            "name": self.name,
            "status": self.status.value,
            "source": str(self.source),
            "source_kind": self.source.kind,
            "distribution": self.source.distribution,
            "path": str(self.source.path) if self.source.path is not None else None,
            "version": self.version,
            "description": self.summary(),
            "reason": self.reason,
        }

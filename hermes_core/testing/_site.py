"""A throwaway ``site-packages`` on ``sys.path`` for tests of engine discovery."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

from hermes_core.testing._distributions import write_distribution

__all__ = ["TemporarySite"]


class TemporarySite:
    """Distributions written here are found by ``importlib.metadata`` until :meth:`close`.

    :meth:`close` removes the directory from ``sys.path`` and forgets every
    module imported from it (and every directory plugin module), so tests
    stay independent of each other.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        path.mkdir(parents=True, exist_ok=True)
        self._modules_before = set(sys.modules)
        sys.path.insert(0, str(path))
        importlib.invalidate_caches()

    def add(
        self,
        name: str,
        version: str = "1.0",
        *,
        entry_points: Mapping[str, Mapping[str, str]] | None = None,
        requires: Sequence[str] = (),
        summary: str = "",
        files: Mapping[str, str] | None = None,
    ) -> Path:
        """Write distribution ``name`` (see :func:`write_distribution`) and make it visible."""
        dist_info = write_distribution(
            self.path,
            name,
            version,
            entry_points=entry_points,
            requires=requires,
            summary=summary,
            files=files,
        )
        importlib.invalidate_caches()
        return dist_info

    def add_engine(
        self,
        distribution: str,
        engine: str,
        source: str,
        *,
        version: str = "1.0",
        requires: Sequence[str] = (),
        summary: str = "",
        attribute: str = "Engine",
    ) -> Path:
        """Write a distribution shipping one engine module, declared as entry point ``engine``.

        ``source`` is the text of the module, named after the distribution
        (``acme-engine`` ships ``acme_engine.py``); ``attribute`` is the
        object the entry point names.
        """
        module = distribution.replace("-", "_").replace(".", "_")
        return self.add(
            distribution,
            version,
            entry_points={"hermes.context_engines": {engine: f"{module}:{attribute}"}},
            requires=requires,
            summary=summary,
            files={f"{module}.py": source},
        )

    def close(self) -> None:
        """Take the site off ``sys.path`` and unload what was imported from it."""
        root = str(self.path)
        if root in sys.path:
            sys.path.remove(root)
        for name in set(sys.modules) - self._modules_before:
            module = sys.modules.get(name)
            origin = getattr(module, "__file__", None) or ""
            if origin.startswith(root) or name.startswith("hermes_plugins."):
                del sys.modules[name]
        importlib.invalidate_caches()

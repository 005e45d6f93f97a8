"""The frameworks are extras, not dependencies: a clear error when one is missing."""

from __future__ import annotations

import importlib
from types import ModuleType

from hermes_core._errors import MissingExtraError

__all__ = ["MissingExtraError", "require"]


def require(integration: str, extra: str, *modules: str) -> list[ModuleType]:
    """Import ``modules`` for ``integration``, or raise :class:`MissingExtraError` naming
    the pip line of ``extra`` and the first module that failed."""
    imported = []
    for name in modules:
        try:
            imported.append(importlib.import_module(name))
        except ImportError as exc:
            raise MissingExtraError(integration, extra, name, str(exc)) from exc
    return imported

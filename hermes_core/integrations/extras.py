"""The frameworks are extras, not dependencies: a clear error when one is missing."""

from __future__ import annotations

import importlib
from types import ModuleType

from hermes_core.errors import HermesError

__all__ = ["MissingExtraError", "require"]


class MissingExtraError(HermesError, ImportError):
    """A framework integration was imported without the extra that installs the framework.

    An :class:`ImportError` too, so ``except ImportError`` around an optional
    integration keeps working. ``extra`` is the extra's name, ``module`` the
    module that could not be imported.
    """

    def __init__(self, integration: str, extra: str, module: str, reason: str) -> None:
        self.extra = extra
        self.module = module
        super().__init__(
            f"hermes_core.integrations.{integration} needs {module!r}, which is not "
            f"importable ({reason}): install it with "
            f'pip install "hermes-context[{extra}]"'
        )


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

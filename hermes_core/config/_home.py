"""Where Hermes keeps its state: ``$HERMES_HOME``, else ``~/.hermes``. The one place
that default is spelled."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

__all__ = ["hermes_home"]


def hermes_home(env: Mapping[str, str] | None = None) -> Path:
    """``$HERMES_HOME`` in ``env`` (default: the process's environment), else ``~/.hermes``."""
    env = os.environ if env is None else env
    value = env.get("HERMES_HOME")
    return Path(value).expanduser() if value else Path("~/.hermes").expanduser()

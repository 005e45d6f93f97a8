"""What every attack test gets."""

from __future__ import annotations

import sys
from collections.abc import Iterator

import pytest


@pytest.fixture(autouse=True)
def unload_plugins() -> Iterator[None]:
    """Whatever an attack imports under Hermes' names (stand-ins, plugins, engine folders) is
    unloaded after it, so later tests see a process that never loaded them."""
    before = set(sys.modules)
    yield
    for name in set(sys.modules) - before:
        if name.split(".")[0] in (
            "agent",
            "hermes_cli",
            "hermes_context_plugins",
            "hermes_plugins",
        ):
            del sys.modules[name]

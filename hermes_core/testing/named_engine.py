"""The contract suite for an installed engine, collected when ``--hermes-engine NAME`` is given."""

from __future__ import annotations

from pathlib import Path

import pytest

from hermes_core._discovery import discover
from hermes_core._engine import ContextEngine
from hermes_core.config import load_config
from hermes_core.registry import EngineRegistry
from hermes_core.testing._contract import ContextEngineContract


class TestInstalledEngine(ContextEngineContract):
    """The contract, run against the engine named by ``--hermes-engine``."""

    _registry: EngineRegistry

    @pytest.fixture(autouse=True)
    def _select_engine(self, request: pytest.FixtureRequest, tmp_path: Path) -> None:
        name = request.config.getoption("hermes_engine")
        if not name:
            pytest.fail("this suite runs with --hermes-engine NAME", pytrace=False)
        self.expected_name = name
        registry = discover(load_config({"context": {"engine": name}}))
        # engines under test never touch the user's $HERMES_HOME
        self._registry = registry.with_config(registry.config.isolated(tmp_path))

    def make_engine(self) -> ContextEngine:
        assert self.expected_name is not None
        return self._registry.create_engine(self.expected_name)

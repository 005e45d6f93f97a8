"""hermes-engine-lcm keeps the ContextEngine contract (the kit from hermes_core.testing)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hermes_engine_lcm import LCMEngine

from hermes_core import ContextEngine
from hermes_core.testing import ContextEngineContract


class TestLCMKeepsTheContract(ContextEngineContract):
    expected_name = "lcm"

    @pytest.fixture(autouse=True)
    def _home(self, tmp_path: Path) -> None:
        self.home = tmp_path

    def make_engine(self) -> ContextEngine:
        return LCMEngine({"lcm": {"fresh_tail_messages": 4}}, hermes_home=self.home)

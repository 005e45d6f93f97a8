"""The contract kit for engine authors: a base class and the --hermes-engine option."""

from __future__ import annotations

import subprocess
import sys
from importlib.metadata import entry_points

import pytest

from hermes_compressor import CompressorEngine
from hermes_core import ContextEngine
from hermes_core.testing import ContextEngineContract
from tests.host_engines import ORPHANING_SOURCE


class TestCompressorKeepsTheContract(ContextEngineContract):
    expected_name = "compressor"

    def make_engine(self) -> ContextEngine:
        return CompressorEngine()


def test_the_option_runs_the_contract_against_an_installed_engine(
    pytester: pytest.Pytester,
) -> None:
    result = pytester.runpytest("--hermes-engine", "compressor", "-p", "no:cacheprovider")
    outcomes = result.parseoutcomes()
    assert outcomes.get("passed", 0) >= 20
    assert "failed" not in outcomes and "error" not in outcomes


def test_the_option_reports_an_engine_that_is_not_installed(pytester: pytest.Pytester) -> None:
    result = pytester.runpytest("--hermes-engine", "no-such-engine", "-p", "no:cacheprovider")
    assert result.ret != 0
    result.stdout.fnmatch_lines(["*context engine 'no-such-engine' is not installed*"])


def test_the_kit_catches_an_engine_that_breaks_tool_pairs(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        test_orphans=ORPHANING_SOURCE
        + """
from hermes_core.testing import ContextEngineContract

class TestOrphaning(ContextEngineContract):
    def make_engine(self):
        return Orphaning()
"""
    )
    result = pytester.runpytest("-p", "no:cacheprovider", "-rf")
    failed = sorted(
        line.split("::")[-1].split(" ")[0] for line in result.outlines if line.startswith("FAILED ")
    )
    # exactly the rules about compress results fail; every other rule holds for this engine
    assert failed == [
        "test_compress_accepts_a_focus_topic",
        "test_compress_returns_a_valid_message_list",
    ]
    assert result.parseoutcomes()["passed"] > 0


def test_the_pytest_plugin_imports_nothing_of_the_host_until_asked() -> None:
    """pytest imports the plugin in every run where hermes-context is installed."""
    probe = (
        "import sys, pytest, hermes_context_pytest; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'hermes_core'))"
    )
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"
    (entry,) = [e for e in entry_points(group="pytest11") if e.name == "hermes_core"]
    assert entry.value == "hermes_context_pytest"

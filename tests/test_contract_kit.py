"""The contract kit for engine authors: a base class and the --hermes-engine option."""

from __future__ import annotations

import pytest

from hermes_compressor import CompressorEngine
from hermes_core import ContextEngine
from hermes_core.testing import ContextEngineContract


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
        test_orphans="""
        from hermes_core import ContextEngine
        from hermes_core.testing import ContextEngineContract

        class Orphaning(ContextEngine):
            name = "orphaning"
            def update_from_response(self, usage):
                self.last_prompt_tokens = usage["prompt_tokens"]
                self.last_completion_tokens = usage["completion_tokens"]
                self.last_total_tokens = usage["total_tokens"]
            def should_compress(self, prompt_tokens=None):
                return False
            def compress(self, messages, current_tokens=None, focus_topic=None):
                # drops every assistant message: tool results become orphans
                return [m for m in messages if m["role"] != "assistant"]

        class TestOrphaning(ContextEngineContract):
            def make_engine(self):
                return Orphaning()
        """
    )
    result = pytester.runpytest("-p", "no:cacheprovider")
    result.assert_outcomes(passed=18, failed=2)
    result.stdout.fnmatch_lines(
        [
            "*FAILED*test_compress_returns_a_valid_message_list*",
            "*FAILED*test_compress_accepts_a_focus_topic*",
        ]
    )

"""The ContextEngine ABC: required members and every documented default."""

from __future__ import annotations

import json
from typing import Any

import pytest

from hermes_core import ContextEngine


class Minimal(ContextEngine):
    @property
    def name(self) -> str:
        return "minimal"

    def update_from_response(self, usage: dict[str, Any]) -> None:
        self.last_prompt_tokens = usage["prompt_tokens"]

    def should_compress(self, prompt_tokens: int | None = None) -> bool:
        return (prompt_tokens or 0) > self.threshold_tokens

    def compress(self, messages: Any, current_tokens: Any = None, focus_topic: Any = None) -> Any:
        return messages[-1:]


@pytest.fixture
def engine() -> Minimal:
    return Minimal()


@pytest.mark.parametrize("missing", ["name", "update_from_response", "should_compress", "compress"])
def test_an_engine_missing_a_required_member_cannot_be_instantiated(missing: str) -> None:
    members = {k: v for k, v in vars(Minimal).items() if k != missing}
    incomplete = type("Incomplete", (ContextEngine,), members)
    with pytest.raises(TypeError, match=missing):
        incomplete()


def test_class_attributes_start_at_zero_with_a_075_threshold(engine: Minimal) -> None:
    assert (
        engine.last_prompt_tokens,
        engine.last_completion_tokens,
        engine.last_total_tokens,
        engine.threshold_tokens,
        engine.context_length,
        engine.compression_count,
    ) == (0, 0, 0, 0, 0, 0)
    assert engine.threshold_percent == 0.75
    assert dict(engine.model_thresholds) == {}


def test_should_compress_info_wraps_should_compress_with_no_reason(engine: Minimal) -> None:
    engine.threshold_tokens = 100
    assert engine.should_compress_info(101) == (True, None)
    assert engine.should_compress_info(99) == (False, None)


def test_preflight_defaults_to_false_and_content_to_true(engine: Minimal) -> None:
    assert engine.should_compress_preflight([{"role": "user", "content": "x"}]) is False
    assert engine.has_content_to_compress([]) is True


def test_session_hooks_default_to_no_ops(engine: Minimal) -> None:
    before = dict(vars(engine))
    engine.on_session_start("s1", hermes_home="/tmp", model="m", boundary_reason="x")
    engine.on_session_end("s1", [])
    assert dict(vars(engine)) == before


def test_session_reset_zeroes_the_three_token_counters_and_the_compression_count(
    engine: Minimal,
) -> None:
    engine.last_prompt_tokens, engine.last_completion_tokens = 10, 20
    engine.last_total_tokens, engine.compression_count = 30, 4
    engine.threshold_tokens, engine.context_length = 500, 1000
    engine.on_session_reset()
    assert (engine.last_prompt_tokens, engine.last_completion_tokens) == (0, 0)
    assert (engine.last_total_tokens, engine.compression_count) == (0, 0)
    assert (engine.threshold_tokens, engine.context_length) == (500, 1000)


def test_update_model_sets_context_length_and_threshold_tokens(engine: Minimal) -> None:
    engine.update_model("gpt-x", 200_000)
    assert engine.context_length == 200_000
    assert engine.threshold_tokens == 150_000


def test_update_model_applies_the_model_threshold_override(engine: Minimal) -> None:
    engine.model_thresholds = {"claude": 0.5, "claude-opus": 0.9}
    engine.update_model("claude-opus-5", 100_000)
    assert engine.threshold_percent == 0.9
    assert engine.threshold_tokens == 90_000


def test_leaving_an_overridden_model_restores_the_configured_threshold(engine: Minimal) -> None:
    engine.threshold_percent = 0.6
    engine.model_thresholds = {"small": 0.3}
    engine.update_model("small-model", 10_000)
    assert engine.threshold_tokens == 3_000
    engine.update_model("big-model", 10_000)
    assert engine.threshold_percent == 0.6
    assert engine.threshold_tokens == 6_000


def test_update_model_resolves_provider_scoped_keys(engine: Minimal) -> None:
    engine.model_thresholds = {"openrouter:gpt": 0.4, "gpt": 0.8}
    engine.update_model("gpt-5", 1000, provider="openrouter")
    assert engine.threshold_tokens == 400
    engine.update_model("gpt-5", 1000, provider="openai")
    assert engine.threshold_tokens == 800


def test_tools_default_to_none_and_unknown_calls_answer_json_error(engine: Minimal) -> None:
    assert engine.get_tool_schemas() == []
    answer = engine.handle_tool_call("lcm_grep", {"query": "x"}, messages=[])
    assert json.loads(answer) == {"error": "Unknown context engine tool: lcm_grep"}


def test_get_status_reports_usage_as_a_percentage_of_the_context(engine: Minimal) -> None:
    engine.update_model("m", 1000)
    engine.last_prompt_tokens = 250
    engine.compression_count = 2
    assert engine.get_status() == {
        "last_prompt_tokens": 250,
        "threshold_tokens": 750,
        "context_length": 1000,
        "usage_percent": 25.0,
        "compression_count": 2,
    }


def test_get_status_clamps_usage_to_100_percent(engine: Minimal) -> None:
    engine.update_model("m", 1000)
    engine.last_prompt_tokens = 5000
    assert engine.get_status()["usage_percent"] == 100.0


def test_get_status_never_reports_negative_tokens(engine: Minimal) -> None:
    engine.update_model("m", 1000)
    engine.last_prompt_tokens = -1  # compression just ran
    status = engine.get_status()
    assert status["last_prompt_tokens"] == 0
    assert status["usage_percent"] == 0.0


def test_get_status_reports_zero_usage_without_a_context_length(engine: Minimal) -> None:
    engine.last_prompt_tokens = 300
    assert engine.get_status()["usage_percent"] == 0.0


def test_select_context_and_on_turn_complete_default_to_none(engine: Minimal) -> None:
    request = [{"role": "user", "content": "hi"}]
    assert engine.select_context(request, budget_tokens=100) is None
    before = dict(vars(engine))
    engine.on_turn_complete(request, None, turn_id="t")
    assert dict(vars(engine)) == before


def test_a_fresh_clone_given_the_model_figures_decides_as_the_original(engine: Minimal) -> None:
    engine.model_thresholds = {"small-model": 0.5}
    engine.update_model("small-model", 10_000)  # the override: 0.5, configured 0.75 kept
    engine.compression_count = 3
    twin = engine.copy_model_figures(Minimal())
    assert (twin.context_length, twin.threshold_tokens) == (10_000, 5_000)
    assert twin.threshold_percent == 0.5 and twin.model_thresholds == {"small-model": 0.5}
    assert twin.compression_count == 0  # the engine's own state is not a model figure
    twin.update_model("other-model", 10_000)  # leaving the override restores the configured
    assert twin.threshold_tokens == 7_500

"""resolve_model_threshold: longest substring wins, provider-scoped keys beat bare ones."""

from __future__ import annotations

from hermes_core import resolve_model_threshold


def test_no_thresholds_gives_the_default() -> None:
    assert resolve_model_threshold("gpt-5", {}, 0.5) == 0.5
    assert resolve_model_threshold("gpt-5", None, 0.5) == 0.5


def test_a_non_matching_key_gives_the_default() -> None:
    assert resolve_model_threshold("gpt-5", {"claude": 0.9}, 0.5) == 0.5


def test_the_longest_matching_substring_wins_whatever_the_order() -> None:
    thresholds = {"claude-opus-4": 0.9, "claude": 0.6, "opus": 0.7}
    assert resolve_model_threshold("anthropic/claude-opus-4.1", thresholds, 0.5) == 0.9
    assert resolve_model_threshold("claude-sonnet", thresholds, 0.5) == 0.6


def test_matching_ignores_case() -> None:
    assert resolve_model_threshold("GPT-5-Mini", {"gpt-5-mini": 0.3}, 0.5) == 0.3


def test_a_provider_scoped_key_beats_a_bare_key_of_the_same_length() -> None:
    thresholds = {"gpt": 0.8, "openrouter:gpt": 0.4}
    assert resolve_model_threshold("gpt-5", thresholds, 0.5, provider="openrouter") == 0.4


def test_a_provider_scoped_key_only_applies_to_its_provider() -> None:
    thresholds = {"openrouter:gpt": 0.4}
    assert resolve_model_threshold("gpt-5", thresholds, 0.5, provider="openai") == 0.5
    assert resolve_model_threshold("gpt-5", thresholds, 0.5) == 0.5


def test_a_longer_bare_key_beats_a_shorter_scoped_key() -> None:
    thresholds = {"openrouter:gpt": 0.4, "gpt-5-mini": 0.2}
    assert resolve_model_threshold("gpt-5-mini", thresholds, 0.5, provider="openrouter") == 0.2


def test_keys_with_colons_in_the_model_name_match_as_bare_substrings() -> None:
    assert resolve_model_threshold("qwen2.5:14b-instruct", {"qwen2.5:14b": 0.35}, 0.5) == 0.35

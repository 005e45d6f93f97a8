"""The compression: section: reference defaults, clamping, and errors that name the key."""

from __future__ import annotations

from pathlib import Path

import pytest

from hermes_compressor.settings import CompressorSettings
from hermes_core import ConfigError, HermesError
from hermes_core.testing import EventCapture


def test_the_defaults_are_the_reference_hosts() -> None:
    settings = CompressorSettings.from_config({})
    assert settings == CompressorSettings(
        threshold=0.5,
        threshold_tokens=None,
        target_ratio=0.2,
        protect_first_n=3,
        protect_last_n=20,
        min_tail_user_messages=1,
        abort_on_summary_failure=False,
        max_attempts=3,
    )


@pytest.mark.parametrize(("given", "used"), [(0.05, 0.10), (0.95, 0.80), (0.3, 0.3)])
def test_target_ratio_is_clamped(given: float, used: float) -> None:
    assert (
        CompressorSettings.from_config({"compression": {"target_ratio": given}}).target_ratio
        == used
    )


@pytest.mark.parametrize(
    ("key", "value", "expected"),
    [
        ("protect_last_n", "abc", "a whole number, 1 or more"),
        ("protect_first_n", -1, "a whole number, 0 or more"),
        ("threshold", 1.5, "greater than 0 and at most 1"),
        ("abort_on_summary_failure", "yes", "true or false"),
        ("max_attempts", 0, "1 or more"),
        ("threshold_tokens", 2.5, "whole number of tokens"),
    ],
)
def test_an_invalid_value_names_its_key(key: str, value: object, expected: str) -> None:
    config = {"context": {"strict": True}, "compression": {key: value}}
    with pytest.raises(ConfigError) as raised:
        CompressorSettings.from_config(config)
    (problem,) = raised.value.problems
    assert problem.key == f"compression.{key}"
    assert expected in problem.expected
    assert f"key 'compression.{key}'" in str(raised.value)


def test_without_strict_an_invalid_value_is_logged_and_its_default_used(logs: EventCapture) -> None:
    settings = CompressorSettings.from_config({"compression": {"protect_last_n": "many"}})
    assert settings.protect_last_n == 20
    (event,) = logs.named("hermes_config.invalid")
    assert event["key"] == "compression.protect_last_n"


def test_the_strict_environment_variable_makes_a_bad_compressor_key_an_error(
    tmp_path: Path,
) -> None:
    from hermes_core import ContextHost

    config = tmp_path / "config.yaml"
    config.write_text("compression:\n  protect_last_n: 0\n", encoding="utf-8")
    with pytest.raises(HermesError, match=rf"{config}:2: key 'compression\.protect_last_n'"):
        ContextHost.from_config(config, env={"HERMES_STRICT_PLUGINS": "1"})
    lenient = ContextHost.from_config(config, env={})
    assert lenient.engine.settings.protect_last_n == 20  # type: ignore[attr-defined]


def test_hermes_strict_plugins_makes_a_bad_compressor_key_an_error(tmp_path: Path) -> None:
    from hermes_core import load_config

    path = tmp_path / "config.yaml"
    path.write_text("compression:\n  protect_last_n: many\n", encoding="utf-8")
    config = load_config(path, env={"HERMES_STRICT_PLUGINS": "1"})
    with pytest.raises(ConfigError) as raised:
        CompressorSettings.from_config(config.data, config)
    (problem,) = raised.value.problems
    assert (problem.source, problem.line) == (str(path), 2)
    assert problem.key == "compression.protect_last_n"


def test_without_a_loaded_configuration_no_file_is_named() -> None:
    config = {"context": {"strict": True}, "compression": {"max_attempts": 0}}
    with pytest.raises(ConfigError) as raised:
        CompressorSettings.from_config(config)
    (problem,) = raised.value.problems
    assert problem.source == "<mapping>" and "config.yaml" not in str(raised.value)

"""Hostile configuration files are refused quickly, with file and line, and lose nothing else."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

from hermes_core import (
    ConfigError,
    ContextHost,
    EngineStatus,
    discover,
    load_config,
)
from hermes_core.testing import EventCapture

ALIAS_BOMB = "a0: &a0 [x,x,x,x,x,x,x,x,x,x]\n" + "".join(
    f"a{i}: &a{i} [" + ",".join([f"*a{i - 1}"] * 10) + "]\n" for i in range(1, 10)
)


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("tail", ["context: {engine: *a9}\n", "lcm: {database: *a9}\n"])
def test_an_alias_bomb_is_refused_before_it_expands(tmp_path: Path, tail: str) -> None:
    path = tmp_path / "config.yaml"
    path.write_text(ALIAS_BOMB + tail, encoding="utf-8")
    assert path.stat().st_size < 600
    config = load_config(path, env={})  # returns at once; defaults apply
    assert config.engine.name == "compressor" and config.data == {}
    (problem,) = config.problems
    assert problem.source == str(path) and "aliases expand to more than" in problem.got
    with pytest.raises(ConfigError, match="aliases expand"):
        load_config(path, env={}, strict=True)


def test_a_plugin_manifest_alias_bomb_marks_only_that_plugin_broken(tmp_path: Path) -> None:
    plugin = tmp_path / "plugins" / "context_engine" / "bomb"
    plugin.mkdir(parents=True)
    (plugin / "plugin.yaml").write_text(ALIAS_BOMB + "name: *a9\n", encoding="utf-8")
    (plugin / "__init__.py").write_text("", encoding="utf-8")
    registry = discover(load_config({}, env={"HERMES_HOME": str(tmp_path)}))
    record = registry.get("bomb")
    assert record is not None and record.status is EngineStatus.BROKEN
    assert "aliases expand" in (record.reason or "")
    assert registry.get("compressor") is not None


def test_a_manifest_with_90000_unknown_keys_logs_one_bounded_event(
    tmp_path: Path, logs: EventCapture
) -> None:
    plugin = tmp_path / "plugins" / "context_engine" / "wide"
    plugin.mkdir(parents=True)
    keys = "".join(f"x{n:x}: 0\n" for n in range(90_000))  # under the bounds a file has
    (plugin / "plugin.yaml").write_text("name: wide\n" + keys, encoding="utf-8")
    (plugin / "__init__.py").write_text("", encoding="utf-8")
    discover(load_config({}, env={"HERMES_HOME": str(tmp_path)}))
    (event,) = logs.named("hermes_plugin.manifest_unknown_keys")
    assert event["count"] == 90_000
    assert len(json.dumps(event, default=str)) < 10_000
    assert "89968 more" in str(event["keys"])


def test_a_huge_file_is_not_read(tmp_path: Path) -> None:
    path = tmp_path / "config.yaml"
    # 26 MB that are not UTF-8: a file that was read would be refused for its bytes instead
    path.write_bytes(b"\xff" * 26_000_000)
    (problem,) = load_config(path, env={}).problems
    assert "26,000,000 bytes, more than a configuration holds" in problem.got


def test_a_duplicate_key_is_an_error_naming_both_lines(tmp_path: Path, logs: EventCapture) -> None:
    path = tmp_path / "config.yaml"
    path.write_text("context:\n  engine: lcm\nmodel: x\ncontext:\n  strict: true\n")
    config = load_config(path, env={})
    (problem,) = config.problems
    assert "key 'context' appears twice (lines 1 and 4)" in problem.got and problem.line == 4
    assert logs.named("hermes_config.invalid")


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("compression.context_timeout_seconds", ".inf"),
        ("compression.context_timeout_seconds", "1e10"),
        ("compression.context_timeout_seconds", ".nan"),
        ("auxiliary.compression.timeout_seconds", ".inf"),
        ("auxiliary.compression.timeout_seconds", "1e10"),
        ("lcm.deadline_seconds", ".inf"),
    ],
)
def test_numbers_out_of_range_are_refused_at_load_and_passes_still_run(
    tmp_path: Path, key: str, value: str
) -> None:
    *sections, name = key.split(".")
    text = "".join(f"{'  ' * depth}{part}:\n" for depth, part in enumerate(sections))
    text += f"{'  ' * len(sections)}{name}: {value}\n"
    path = tmp_path / "config.yaml"
    path.write_text("context:\n  engine: lcm\n" + text, encoding="utf-8")
    host = ContextHost.from_config(path, env={"HERMES_HOME": str(tmp_path)})
    assert math.isfinite(host.context_timeout_seconds)
    host.update_model("m", 2_000)
    history = [{"role": "user", "content": f"message {n} " * 40} for n in range(40)]
    assert len(host.compress(history)) < len(history)  # no OverflowError: the pass ran
    host.close()


def test_an_api_key_in_the_config_file_is_accepted_and_never_shown(
    tmp_path: Path, logs: EventCapture
) -> None:
    from hermes_core.llm import AuxiliaryLLMConfig

    secret = "sk-live-0123456789abcdefSECRET"
    path = write(
        tmp_path / "c.yaml",
        "auxiliary:\n  compression:\n    base_url: https://llm.example/v1\n"
        f"    model: m\n    api_key: {secret}\n",
    )
    config = load_config(path)
    assert config.problems == () and logs.entries == []
    settings = AuxiliaryLLMConfig.from_config(config.data, "compression")
    assert settings is not None and settings.api_key({}) == secret
    assert secret not in repr(settings)
    assert settings.api_key({"K": "from-env"}) == secret  # no variable named: the file's key
    named = AuxiliaryLLMConfig("https://x/v1", "m", api_key_env="K", api_key_value=secret)
    assert named.api_key({"K": "from-env"}) == "from-env"


def test_a_bad_secret_value_is_reported_without_its_text(
    tmp_path: Path, logs: EventCapture
) -> None:
    secret = ["sk-live-0123456789abcdefSECRET"]
    path = write(tmp_path / "c.yaml", f"auxiliary:\n  compression:\n    api_key: {secret}\n")
    config = load_config(path)
    (problem,) = config.problems
    assert problem.got == "list (hidden)"
    with pytest.raises(ConfigError) as raised:
        load_config(path, strict=True)
    assert "SECRET" not in str(raised.value)
    assert all("SECRET" not in str(entry) for entry in logs.entries)


def test_two_thousand_unknown_keys_compose_the_file_a_bounded_number_of_times(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each unknown key's line was found by composing the whole file again: 2,000 keys (a
    20 KB file) took about 60 s to load. The work is counted, not timed."""
    import yaml

    keys = [f"unknown_key_{n}" for n in range(2_000)]
    text = "context:\n  engine: compressor\n" + "".join(f"  {key}: 1\n" for key in keys)
    (tmp_path / "config.yaml").write_text(text, encoding="utf-8")
    compositions = []
    real = yaml.compose

    def counted(*args: Any, **kwargs: Any) -> Any:
        compositions.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(yaml, "compose", counted)
    config = load_config(tmp_path / "config.yaml", env={"HERMES_HOME": str(tmp_path)})
    unknown = [p for p in config.problems if "unknown key" in str(p)]
    assert len(unknown) == 2_000
    assert (unknown[0].line, unknown[-1].line) == (3, 2_002)  # each still names its line
    assert len(compositions) <= 3

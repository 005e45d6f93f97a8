"""Hostile configuration files are refused quickly, with file and line, and lose nothing else."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from hermes_core import ConfigError, ContextHost, EngineRegistry, EngineStatus, load_config
from hermes_core.testing import EventCapture

ALIAS_BOMB = "a0: &a0 [x,x,x,x,x,x,x,x,x,x]\n" + "".join(
    f"a{i}: &a{i} [" + ",".join([f"*a{i - 1}"] * 10) + "]\n" for i in range(1, 10)
)


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
    registry = EngineRegistry.discover(load_config({}, env={"HERMES_HOME": str(tmp_path)}))
    record = registry.get("bomb")
    assert record is not None and record.status is EngineStatus.BROKEN
    assert "aliases expand" in (record.reason or "")
    assert registry.get("compressor") is not None


def test_a_huge_file_is_not_read(tmp_path: Path) -> None:
    path = tmp_path / "config.yaml"
    path.write_text("# padding\n" * 2_600_000, encoding="utf-8")  # 26 MB
    (problem,) = load_config(path, env={}).problems
    assert "more than a configuration holds" in problem.got


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

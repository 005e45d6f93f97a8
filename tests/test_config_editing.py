"""Selecting an engine changes the one key context.engine; every other byte of the file stays."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from hermes_core.config._editing import ConfigEditError, set_context_engine
from hermes_core.config._writing import write_config_text

#: A config.yaml as Hermes Agent users keep it: comments, anchors, aliases,
#: merge keys, odd quoting, blank lines, a flow sequence and a block scalar.
RICH = """\
# My agent.   Do not lose this comment.
defaults: &defaults   # anchor
  provider: 'openrouter'
  base_url: "https://example.invalid/v1"

model:
  <<: *defaults
  default: "anthropic/claude"   # the main model
  aliases: [fast,  slow]

context:
  # which engine
  strict:   false
  engine: compressor  # picked by hand

display:
  banner: |
    Hello,
      world
  ratio: 0.75
other: *defaults
"""


def changed_lines(before: str, after: str) -> list[tuple[str, str]]:
    return [
        (old, new)
        for old, new in zip(before.splitlines(), after.splitlines(), strict=True)
        if old != new
    ]


def test_an_existing_engine_value_is_replaced_in_place() -> None:
    edited = set_context_engine(RICH, "lcm")
    assert changed_lines(RICH, edited) == [
        ("  engine: compressor  # picked by hand", "  engine: lcm  # picked by hand")
    ]


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ('  engine: "compressor"\n', '  engine: "lcm"\n'),
        ("  engine: 'compressor'\n", "  engine: 'lcm'\n"),
    ],
)
def test_the_quoting_style_of_the_value_is_kept(line: str, expected: str) -> None:
    text = "context:\n" + line + "  strict: true\n"
    assert set_context_engine(text, "lcm") == "context:\n" + expected + "  strict: true\n"


def test_a_name_yaml_would_read_as_another_type_is_quoted() -> None:
    edited = set_context_engine("context:\n  engine: lcm\n", "true")
    assert edited == 'context:\n  engine: "true"\n'
    assert yaml.safe_load(edited)["context"]["engine"] == "true"


def test_a_context_without_engine_gets_one_line_at_its_indentation() -> None:
    text = RICH.replace("  engine: compressor  # picked by hand\n", "")
    edited = set_context_engine(text, "lcm")
    assert edited == text.replace("  strict:   false\n", "  engine: lcm\n  strict:   false\n", 1)


def test_a_missing_context_section_is_appended() -> None:
    text = RICH.replace("context:\n  # which engine\n  strict:   false\n", "").replace(
        "  engine: compressor  # picked by hand\n", ""
    )
    edited = set_context_engine(text, "lcm")
    assert edited == text + "context:\n  engine: lcm\n"
    no_newline = "model:\n  default: x"
    assert set_context_engine(no_newline, "lcm") == no_newline + "\ncontext:\n  engine: lcm\n"


def test_an_empty_file_and_a_null_context_are_filled_in() -> None:
    assert set_context_engine("", "lcm") == "context:\n  engine: lcm\n"
    assert set_context_engine("# only a comment\n", "lcm") == (
        "# only a comment\ncontext:\n  engine: lcm\n"
    )
    assert set_context_engine("context:   # soon\nx: 1\n", "lcm") == (
        "context:   # soon\n  engine: lcm\nx: 1\n"
    )
    assert set_context_engine("context: ~\n", "lcm") == "context:\n  engine: lcm\n"


def test_flow_mappings_are_edited_inside_their_braces() -> None:
    assert set_context_engine("context: {}\n", "lcm") == "context: {engine: lcm}\n"
    assert set_context_engine("context: {strict: true}\n", "lcm") == (
        "context: {engine: lcm, strict: true}\n"
    )
    assert set_context_engine("context: {engine: a, strict: true}\n", "lcm") == (
        "context: {engine: lcm, strict: true}\n"
    )


def test_windows_line_endings_are_kept() -> None:
    text = RICH.replace("\n", "\r\n").replace("  engine: compressor  # picked by hand\r\n", "")
    edited = set_context_engine(text, "lcm")
    assert "\n" not in edited.replace("\r\n", "")
    assert yaml.safe_load(edited)["context"]["engine"] == "lcm"


def test_a_merged_engine_is_overridden_by_an_explicit_key() -> None:
    text = "base: &base\n  engine: compressor\ncontext:\n  <<: *base\n  strict: true\n"
    edited = set_context_engine(text, "lcm")
    assert edited == text.replace("  <<: *base\n", "  engine: lcm\n  <<: *base\n")
    assert yaml.safe_load(edited)["context"] == {"engine": "lcm", "strict": True}
    assert yaml.safe_load(edited)["base"] == {"engine": "compressor"}


@pytest.mark.parametrize(
    "text",
    [
        "shared: &ctx\n  engine: compressor\ncontext: *ctx\n",  # editing would change 'shared'
        "e: &e compressor\ncontext:\n  engine: *e\n",
        "- a list\n",
        "{context: {engine: a}}\n",
        "context: [a, b]\n",
        "context:\n  engine: [a]\n",
        "context: {{{\n",
    ],
)
def test_shapes_that_cannot_be_edited_safely_are_refused(text: str) -> None:
    with pytest.raises(ConfigEditError):
        set_context_engine(text, "lcm")


def test_writing_keeps_the_mode_and_follows_a_symlink(tmp_path: Path) -> None:
    target = tmp_path / "real.yaml"
    target.write_text("context:\n  engine: compressor\n", encoding="utf-8")
    target.chmod(0o600)
    link = tmp_path / "config.yaml"
    link.symlink_to(target)
    write_config_text(link, "context:\n  engine: lcm\n")
    assert link.is_symlink()
    assert target.read_text(encoding="utf-8") == "context:\n  engine: lcm\n"
    assert stat.S_IMODE(target.stat().st_mode) == 0o600


def run_select(home: Path, name: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("HERMES_")}
    return subprocess.run(
        [sys.executable, "-m", "hermes_core", "select", name],
        env=dict(env, HERMES_HOME=str(home)),
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_select_on_the_command_line_changes_only_that_key(tmp_path: Path) -> None:
    config = tmp_path / "config.yaml"
    config.write_bytes(RICH.encode())
    result = run_select(tmp_path, "lcm")
    assert result.returncode == 0, result.stderr
    after = config.read_bytes().decode()
    assert changed_lines(RICH, after) == [
        ("  engine: compressor  # picked by hand", "  engine: lcm  # picked by hand")
    ]


def test_select_leaves_a_file_it_cannot_edit_untouched(tmp_path: Path) -> None:
    config = tmp_path / "config.yaml"
    text = "shared: &ctx\n  engine: compressor\ncontext: *ctx\n"
    config.write_text(text, encoding="utf-8")
    result = run_select(tmp_path, "lcm")
    assert result.returncode == 2
    assert "not changed" in result.stderr and "by hand" in result.stderr
    assert config.read_text(encoding="utf-8") == text


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ("", "plugins:\n  enabled: [p]\n"),
        ("model:\n  default: x\n", "model:\n  default: x\nplugins:\n  enabled: [p]\n"),
        ("plugins:\n", "plugins:\n  enabled: [p]\n"),
        ("plugins:\n  dirs: [a]\n", "plugins:\n  enabled: [p]\n  dirs: [a]\n"),
        ("plugins: {dirs: [a]}\n", "plugins: {enabled: [p], dirs: [a]}\n"),
        ("plugins:\n  enabled: []\n", "plugins:\n  enabled: [p]\n"),
        ("plugins:\n  enabled: [a, b]  # mine\n", "plugins:\n  enabled: [a, b, p]  # mine\n"),
        (
            "plugins:\n  enabled:\n    - a\n    - b   # second\n  dirs: []\n",
            "plugins:\n  enabled:\n    - a\n    - b   # second\n    - p\n  dirs: []\n",
        ),
        ("plugins:\n  enabled: ~ # later\n", "plugins:\n  enabled: [p]  # later\n"),
        (
            "plugins:\r\n  enabled:\r\n    - a\r\n",
            "plugins:\r\n  enabled:\r\n    - a\r\n    - p\r\n",
        ),
        ("plugins:\n  enabled: [p]\n", "plugins:\n  enabled: [p]\n"),
    ],
)
def test_enabling_a_plugin_adds_one_entry_in_the_lists_own_style(before: str, after: str) -> None:
    from hermes_core.config._enabling import enable_plugin

    assert enable_plugin(before, "p") == after


def test_enabling_refuses_a_shape_it_cannot_edit_safely() -> None:
    from hermes_core.config._editing import ConfigEditError
    from hermes_core.config._enabling import enable_plugin

    for text in ("plugins: [a]\n", "plugins:\n  enabled: a\n", "- a\n"):
        with pytest.raises(ConfigEditError):
            enable_plugin(text, "p")

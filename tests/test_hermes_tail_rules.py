"""The stand-in for Hermes' compressor keeps the tail each Hermes release keeps
(``tests/e2e/test_real_plugins.py`` measures it against the real releases): the rules by
release, the release a plugin.yaml declares, and the rules' bounds on any conversation."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hermes_core import ContextHost
from hermes_core.sources.hermes_plugins import _shims as shims
from hermes_core.sources.hermes_plugins._compressor_stand_in import ContextCompressor
from hermes_core.sources.hermes_plugins._tail_rules import release_for, row_tokens, tail_rule


def chat(turns: int, words: int = 50) -> list[dict[str, Any]]:
    messages: list[dict[str, Any]] = [{"role": "system", "content": "You are an agent."}]
    for n in range(turns):
        messages.append({"role": "user", "content": f"question {n} " + "word " * words})
        messages.append({"role": "assistant", "content": f"answer {n} " + "word " * words})
    return messages


@pytest.mark.parametrize(
    ("spec", "release"),
    [("<0.20", "0.19"), ("==0.19.0", "0.19"), (">=0.19", "0.22"), (">=0.21", "0.22"),
     ("<0.19", None), (">=1.0", None), ("not a spec", None), (None, None)],
)  # fmt: skip
def test_the_release_a_plugin_declares_is_the_newest_its_requirement_admits(
    spec: Any, release: str | None
) -> None:
    assert release_for(spec) == release


FOLDER_ON_HERMES_COMPRESSOR = """
from agent.context_compressor import ContextCompressor


def register(ctx):
    ctx.register_context_engine(ContextCompressor())
"""


@pytest.fixture
def unloads_what_it_loads() -> Iterator[None]:
    before = set(sys.modules)
    yield
    for name in set(sys.modules) - before:
        if name.split(".")[0] in ("agent", "hermes_cli", "hermes_plugins"):
            del sys.modules[name]


@pytest.mark.parametrize(("manifest", "release"), [("requires_hermes: '<0.20'\n", "0.19"),
                                                   ("", "0.22")])  # fmt: skip
def test_a_folders_plugin_yaml_names_the_rules_its_compressor_follows(
    tmp_path: Path, unloads_what_it_loads: None, manifest: str, release: str
) -> None:
    folder = tmp_path / "plugins" / "context_engine" / "tuned"
    folder.mkdir(parents=True)
    (folder / "plugin.yaml").write_text("name: tuned\n" + manifest, "utf-8")
    (folder / "__init__.py").write_text(FOLDER_ON_HERMES_COMPRESSOR, "utf-8")
    config = {"context": {"engine": "tuned"}}
    with ContextHost.from_config(config, env={"HERMES_HOME": str(tmp_path)}) as host:
        assert host.engine_name == "tuned", host.status()
        assert host.engine.inner.hermes_release == release  # type: ignore[attr-defined]


def test_the_stand_in_follows_the_release_it_was_made_under() -> None:
    assert ContextCompressor().hermes_release == "0.22"  # declared none: 0.22's rules
    with shims.following("0.19"):
        old = ContextCompressor(config_context_length=128_000)
    assert old.hermes_release == "0.19"
    new = ContextCompressor(config_context_length=128_000)
    messages = chat(300)
    # 0.19 keeps a tail of the threshold times the target ratio (64,000 x 0.2 here); 0.22 a
    # window of 10,000 tokens at this size: the same conversation, different tails
    old_kept, new_kept = len(old.compress(messages)), len(new.compress(messages))
    assert old_kept > new_kept > 10, (old_kept, new_kept)


def test_0_22_keeps_a_tail_of_its_lean_window_whatever_the_threshold() -> None:
    messages = chat(400)
    start = tail_rule("0.22", 128_000, 100_000, 0.5, 20)(messages, 1)
    kept = sum(row_tokens(m) for m in messages[start:])
    assert 10_000 <= kept <= 15_000  # its budget, under one and a half times it


@settings(max_examples=200, deadline=None)
@given(
    release=st.sampled_from(["0.19", "0.22"]),
    sizes=st.lists(st.integers(0, 40_000), min_size=0, max_size=300),
    window=st.sampled_from([0, 4_000, 16_000, 128_000, 1_000_000]),
    head=st.integers(0, 4),
    protect_last_n=st.integers(0, 40),
)
def test_the_tail_starts_after_the_head_and_keeps_the_newest_message(
    release: str, sizes: list[int], window: int, head: int, protect_last_n: int
) -> None:
    # past the floor (8 rows), the lean window (25,000 tokens) and the soft ceiling
    messages = [{"role": "user", "content": "x" * size} for size in sizes]
    head = min(head, len(messages))
    start = tail_rule(release, window, int(window * 0.75), 0.2, protect_last_n)(messages, head)
    if len(messages) > head + 1:
        assert head < start <= len(messages) - 1, (start, len(messages))

"""Engines written for Hermes Agent, run on hermes-context's host without Hermes Agent:
the plugin guide's own example, register(ctx) folders, plugins whose modules import each
other, plugins built on Hermes' own compressor."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from hermes_core import ContextHost
from hermes_core.sources.hermes_plugins import _shims as shims
from hermes_core.testing import EventCapture, sample_conversation

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture(autouse=True)
def no_leftover_modules() -> Iterator[None]:
    before = set(sys.modules)
    yield
    for name in set(sys.modules) - before:
        if name.split(".")[0] in (
            "agent",
            "hermes_cli",
            "hermes_context_plugins",
            "hermes_plugins",
        ):
            del sys.modules[name]


def home(tmp_path: Path, config: str) -> Path:
    folder = tmp_path / "home"
    folder.mkdir(exist_ok=True)
    (folder / "config.yaml").write_text(config, encoding="utf-8")
    return folder


def engine_folder(at: Path, fixture: str, name: str) -> Path:
    target = at / "plugins" / "context_engine" / name
    shutil.copytree(FIXTURES / fixture, target)
    return target


def plugin_folder(at: Path, name: str) -> Path:
    target = at / "plugins" / name
    shutil.copytree(FIXTURES / "hermes_plugins" / name, target)
    return target


_built: list[ContextHost] = []


@pytest.fixture(autouse=True)
def closed_hosts() -> Iterator[None]:
    """Every host a test builds is closed after it: a live Hermes plugin host counts as a
    possible owner of any plugin thread, in later tests too (the stand-in call_llm)."""
    yield
    while _built:
        _built.pop().close()


def host(at: Path) -> ContextHost:
    built = ContextHost.from_config(at / "config.yaml", env={"HERMES_HOME": str(at)})
    _built.append(built)
    return built


def cli(*args: str, at: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "HERMES_HOME": str(at), "COLUMNS": "200"}
    env.pop("HERMES_CONFIG", None)
    env.pop("HERMES_CONTEXT_ENGINE", None)
    return subprocess.run(
        [sys.executable, "-m", "hermes_core", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_the_plugin_guides_example_engine_runs_verbatim_without_hermes(tmp_path: Path) -> None:
    assert not shims.hermes_installed()
    at = home(tmp_path, "context:\n  engine: tailkeep\n")
    engine_folder(at, "seed/context_engine/tailkeep", "tailkeep")
    running = host(at)
    assert running.engine_name == "tailkeep"
    assert running.status()["engine_fallback"] is None
    assert running.engine.name == "tailkeep"  # the folder names it, as in Hermes
    messages = sample_conversation(3)
    assert running.compress(messages) is messages  # it returns None: the host keeps the list
    checked = cli("engines", "--check", at=at)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "check tailkeep: ok" in checked.stdout
    assert "ModuleNotFoundError" not in checked.stdout + checked.stderr


def test_an_engine_folder_with_register_ctx_is_accepted(tmp_path: Path) -> None:
    at = home(tmp_path, "context:\n  engine: relay\n")
    folder = engine_folder(at, "hermes_plugins/relay-context", "relay")
    (folder / "plugin.yaml").unlink()
    running = host(at)
    assert running.engine_name == "relay" and running.status()["engine_fallback"] is None
    result = running.compress(sample_conversation(10), force=True)
    assert len(result) == 5  # system prompt + the last four


def test_a_hermes_plugin_whose_modules_import_each_other_runs_on_the_host(tmp_path: Path) -> None:
    at = home(tmp_path, "plugins:\n  enabled: [relay-context]\ncontext:\n  engine: relay\n")
    folder = plugin_folder(at, "relay-context")
    running = host(at)
    assert running.engine_name == "relay", running.status()
    assert len(running.compress(sample_conversation(10))) == 5
    (entry,) = running.tool_schemas()
    answer = json.loads(running.handle_tool_call(entry["function"]["name"], {}))
    assert answer["passes"] == 1 and answer["limit"] == 4
    assert answer["file"] == str(folder / "tools.py")  # __file__ is the plugin's own


def test_a_plugin_built_on_hermes_compressor_runs_on_our_compressor_without_hermes(
    tmp_path: Path, logs: EventCapture
) -> None:
    at = home(tmp_path, "plugins:\n  enabled: [built-on-compressor]\ncontext:\n  engine: tuned\n")
    plugin_folder(at, "built-on-compressor")
    running = host(at)
    assert running.engine_name == "tuned", running.status()
    running.update_model("m", 64_000)
    status = running.status()
    # Hermes' own threshold for a 64,000-token window (85% of it), as inside Hermes
    assert status["threshold_tokens"] == 54_400 and status["context_length"] == 64_000
    conversation = sample_conversation(100)
    result = running.compress(conversation, force=True)
    assert 3 < len(result) < len(conversation)
    assert result[0] == conversation[0] and result[-1] == conversation[-1]
    assert running.status()["passes_compressed"] == 1
    assert not logs.named("context_engine.needs_hermes_agent")


REACHING_PAST = """
from agent.context_compressor import ContextCompressor


class Reaching(ContextCompressor):
    @property
    def name(self):
        return "reaching"

    def compress(self, messages, current_tokens=None, focus_topic=None):
        self.bind_session_state(None, "s")  # Hermes' session database: not stood in for
        return super().compress(messages, current_tokens, focus_topic)


def register(ctx):
    ctx.register_context_engine(Reaching())
"""


def test_a_plugin_reaching_past_the_compressor_stand_in_is_told_what_is_missing(
    tmp_path: Path, logs: EventCapture
) -> None:
    at = home(tmp_path, "plugins:\n  enabled: [reaching]\ncontext:\n  engine: reaching\n")
    folder = at / "plugins" / "reaching"
    folder.mkdir(parents=True)
    (folder / "plugin.yaml").write_text("name: reaching\n", encoding="utf-8")
    (folder / "__init__.py").write_text(REACHING_PAST, encoding="utf-8")
    running = host(at)
    conversation = sample_conversation(10)
    assert running.compress(conversation, force=True) is conversation  # never less, silently
    (failed,) = logs.named("context_engine.compress_failed")
    assert "has no attribute 'bind_session_state'" in failed["detail"]
    assert "pip install hermes-agent" in failed["detail"]


ESTIMATING = """
from agent.context_compressor import ContextCompressor, estimate_messages_tokens_rough


class Estimating(ContextCompressor):
    @property
    def name(self):
        return "estimating"

    def should_compress(self, prompt_tokens=None):
        return False

    def rough(self, messages):
        return estimate_messages_tokens_rough(messages)


def register(ctx):
    ctx.register_context_engine(Estimating())
"""
PAST_THE_NAMES = """
from agent.context_compressor import ContextCompressor, salvage_grown_transcript


def register(ctx):
    ctx.register_context_engine(ContextCompressor())
"""


def _plugin(at: Path, name: str, source: str) -> None:
    folder = at / "plugins" / name
    folder.mkdir(parents=True)
    (folder / "plugin.yaml").write_text(f"name: {name}\n", encoding="utf-8")
    (folder / "__init__.py").write_text(source, encoding="utf-8")


def test_a_plugin_importing_hermes_estimates_from_the_compressor_runs_without_hermes(
    tmp_path: Path,
) -> None:
    # iRonin's compressor imports estimate_messages_tokens_rough from agent.context_compressor
    at = home(tmp_path, "plugins:\n  enabled: [estimating]\ncontext:\n  engine: estimating\n")
    _plugin(at, "estimating", ESTIMATING)
    running = host(at)
    assert running.engine_name == "estimating", running.status()
    inner = running.engine.inner  # type: ignore[attr-defined]
    # as Hermes 0.19 counts: the message's text at four characters a token, rounded up,
    # and 1,500 tokens for an image part instead of its base64
    text = {"role": "user", "content": "x" * 37}
    image = {"role": "user", "content": [{"type": "image_url", "image_url": "A" * 100_000}]}
    assert inner.rough([text]) == -(-len(str(text)) // 4)
    shown = {"role": "user", "content": [{"type": "image_url", "image": "[stripped]"}]}
    assert inner.rough([image]) == -(-len(str(shown)) // 4) + 1_500


def test_a_plugin_importing_a_name_past_the_stand_in_needs_hermes_never_broken(
    tmp_path: Path,
) -> None:
    at = home(tmp_path, "plugins:\n  enabled: [past-names]\ncontext:\n  engine: past-names\n")
    _plugin(at, "past-names", PAST_THE_NAMES)
    listed = cli("engines", "--json", at=at)
    (record,) = [e for e in json.loads(listed.stdout)["engines"] if e["name"] == "past-names"]
    assert record["status"] == "needs-hermes-agent", record
    assert "agent.context_compressor.salvage_grown_transcript" in record["reason"]
    assert "pip install hermes-agent" in record["reason"]


BROKEN_LCM = """
import does_not_exist_anywhere


def register(ctx):
    ctx.register_context_engine(None)
"""


def test_an_engine_broken_in_one_source_and_present_in_another_says_which_runs(
    tmp_path: Path,
) -> None:
    at = home(tmp_path, "plugins:\n  enabled: [other-lcm]\ncontext:\n  engine: lcm\n")
    folder = at / "plugins" / "other-lcm"
    folder.mkdir(parents=True)
    (folder / "plugin.yaml").write_text(
        "name: other-lcm\nprovides_context_engine: [lcm]\n", encoding="utf-8"
    )
    (folder / "__init__.py").write_text(BROKEN_LCM + "# register_context_engine\n")
    listed = json.loads(cli("engines", "--json", at=at).stdout)
    (other,) = [e for e in listed["engines"] if "other-lcm" in e["source"]]
    assert other["name"] == "lcm" and other["status"] == "duplicate"
    assert "broken" in other["reason"] and "ModuleNotFoundError" in other["reason"]
    assert "hermes-engine-lcm" in other["reason"] and "which is used" in other["reason"]
    assert listed["used"] == "lcm"


def test_a_missing_engine_is_never_called_not_installed_while_a_plugin_failed_to_load(
    tmp_path: Path,
) -> None:
    at = home(tmp_path, "plugins:\n  enabled: [quiet]\ncontext:\n  engine: quietly\n")
    folder = at / "plugins" / "quiet"
    folder.mkdir(parents=True)
    (folder / "plugin.yaml").write_text("name: quiet\n", encoding="utf-8")
    (folder / "__init__.py").write_text(
        "from . import tools\n\ndef register(ctx):\n    ctx.register_context_engine(None)\n",
        encoding="utf-8",
    )
    running = host(at)
    reason = str(running.activation.fallback)
    assert "not installed" not in reason
    assert "failed to load" in reason and "quiet" in reason and "tools" in reason


def test_a_hermes_plugins_engine_is_told_the_whole_window_on_our_host(tmp_path: Path) -> None:
    """As inside Hermes: its thresholds are shares of the whole window."""
    at = tmp_path / "home"
    plugin_folder(at, "tidy-context")
    (at / "config.yaml").write_text(
        "plugins:\n  enabled: [tidy-context]\ncontext:\n  engine: tidy\n", encoding="utf-8"
    )
    running = host(at)
    assert running.engine_name == "tidy"
    running.update_model("main", 64_000)
    assert running.engine.inner.context_length == 64_000  # type: ignore[attr-defined]
    assert running.input_budget_tokens == 64_000 - 8_192

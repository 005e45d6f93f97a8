"""``hermes-context doctor`` where Hermes Agent is installed: it says which engine Hermes
will run for the user's config.yaml, and why, by asking Hermes' own loaders."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from tests.e2e.environments import ROOT, LLMServer, environment, hermes_home, run

pytestmark = pytest.mark.e2e

UNCOPYABLE = """
import threading

from agent.context_engine import ContextEngine


class Locked(ContextEngine):
    def __init__(self):
        self.lock = threading.Lock()  # a lock cannot be deep-copied

    @property
    def name(self):
        return "locked"

    def update_from_response(self, usage):
        pass

    def should_compress(self, prompt_tokens=None):
        return False

    def compress(self, messages, current_tokens=None, focus_topic=None):
        return messages


def register(ctx):
    ctx.register_context_engine(Locked())
"""


def doctor(python: Path, home: Path) -> str:
    """What doctor prints, and its exit code last (``exit=N``)."""
    done = subprocess.run(
        [str(python), "-m", "hermes_core", "doctor"],
        env=environment(home, python),
        capture_output=True,
        text=True,
        timeout=600,
    )
    return " ".join(done.stdout.split()) + f" exit={done.returncode}"  # the console wraps


def test_doctor_says_another_enabled_plugin_registers_first_inside_hermes(
    tmp_path: Path, hermes_python: Path, llm_server: LLMServer
) -> None:
    home = hermes_home(tmp_path, llm_server.url, "lcm", "hermes-context, lossless-hermes")
    said = doctor(hermes_python, home)
    assert "will run: compressor" in said
    assert "another enabled plugin registered its engine (lossless-hermes) before 'lcm'" in said
    assert "Plugin 'hermes-context' tried to register a context engine" in said
    # what will run is not what is selected: doctor fails, and says what to do
    assert "Hermes Agent will run compressor, not the selected lcm" in said
    assert said.endswith("exit=1")


def test_doctor_says_an_engine_that_cannot_be_copied_falls_back(
    tmp_path: Path, hermes_python: Path, llm_server: LLMServer
) -> None:
    home = hermes_home(tmp_path, llm_server.url, "locked", "locked")
    folder = home / "plugins" / "locked"
    folder.mkdir(parents=True)
    (folder / "plugin.yaml").write_text("name: locked\n", encoding="utf-8")
    (folder / "__init__.py").write_text(UNCOPYABLE, encoding="utf-8")
    said = doctor(hermes_python, home)
    assert "will run: compressor" in said and "'locked' cannot be copied per agent" in said
    assert said.endswith("exit=1")


def test_doctor_says_our_engine_runs_when_it_is_the_one_enabled(
    tmp_path: Path, hermes_python: Path, llm_server: LLMServer
) -> None:
    home = hermes_home(tmp_path, llm_server.url, "lcm", "hermes-context")
    said = doctor(hermes_python, home)
    assert "will run: lcm: an enabled plugin registers 'lcm' before any other engine" in said
    assert said.endswith("exit=0")


def test_a_plugin_whose_modules_import_each_other_runs_inside_hermes_too(
    tmp_path: Path, hermes_python: Path, llm_server: LLMServer
) -> None:
    home = hermes_home(tmp_path, llm_server.url, "relay", "relay-context")
    shutil.copytree(
        ROOT / "tests" / "fixtures" / "hermes_plugins" / "relay-context",
        home / "plugins" / "relay-context",
    )
    probe = (
        "from run_agent import AIAgent\n"
        f"agent = AIAgent(base_url={llm_server.url!r}, api_key='k', provider='custom', "
        "model='test-model', quiet_mode=True)\n"
        "print(agent.context_compressor.name)\n"
    )
    done = run(hermes_python, "-c", probe, env=environment(home, hermes_python))
    assert done.stdout.strip().splitlines()[-1] == "relay"

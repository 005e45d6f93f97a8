"""The examples the framework pages include run as scripts, as a reader would run them."""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from hermes_core.testing import FakeOpenAI
from tests.integrations.conftest import EXAMPLES


@pytest.mark.parametrize("name", ["langchain_agent", "openai_agents_agent"])
def test_the_example_script_runs_and_reports_the_engine(
    name: str, openai_server: FakeOpenAI, tmp_path: Path
) -> None:
    env = {"HERMES_HOME": str(tmp_path), "HERMES_LCM_EMBEDDING_MODEL": "none", "PATH": ""}
    done = subprocess.run(
        [
            sys.executable,
            str(EXAMPLES / f"{name}.py"),
            "--base-url",
            openai_server.url,
            "--turns",
            "6",
        ],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["engine"] == "lcm" and result["status"]["engine"] == "lcm"
    assert result["status"]["hook_failures"] == 0
    assert len(openai_server.agent_requests()) == 12


@pytest.mark.parametrize("page", ["langchain.md", "openai-agents.md"])
def test_each_framework_page_runs_offline_in_one_command_as_written(
    page: str, tmp_path: Path
) -> None:
    """The page's first command, as written, with no server and no network: it runs, and
    writes nothing into the Hermes home of the user who runs it."""
    text = (EXAMPLES.parent / "docs" / page).read_text(encoding="utf-8")
    command = next(
        block.strip()
        for block in re.findall(r"```bash\n(.*?)```", text, flags=re.S)
        if block.startswith("python examples/")
    )
    assert command.startswith("python examples/") and "--base-url" not in command
    home = tmp_path / "users-home"
    env = {"HERMES_HOME": str(home), "HERMES_LCM_EMBEDDING_MODEL": "none", "PATH": ""}
    args = shlex.split(command)
    done = subprocess.run(
        [sys.executable, *args[1:], "--turns", "4"],
        cwd=EXAMPLES.parent,
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["status"]["engine"] == "lcm" and result["status"]["hook_failures"] == 0
    assert not home.exists()  # the user's own store untouched

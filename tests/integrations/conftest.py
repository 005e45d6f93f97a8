"""Fixtures for the framework integrations: the fake OpenAI server and the examples."""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType

import pytest

from hermes_core import ContextHost
from hermes_core.testing import FakeOpenAI, fake_openai_server

EXAMPLES = Path(__file__).parents[2] / "examples"


@pytest.fixture
def openai_server() -> Iterator[FakeOpenAI]:
    with fake_openai_server() as server:
        yield server


def load_example(name: str) -> ModuleType:
    """``examples/<name>.py`` as a module (the file the docs include)."""
    spec = importlib.util.spec_from_file_location(f"{name}_example", EXAMPLES / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def make_host(tmp_path: Path) -> Iterator[Callable[..., ContextHost]]:
    """``make_host(engine, **sections)``: a host on a home under tmp_path, closed after."""
    made: list[ContextHost] = []

    def make(engine: str, **sections: object) -> ContextHost:
        home = tmp_path / f"home-{len(made)}"
        host = ContextHost.from_config(
            {"context": {"engine": engine}, **sections},
            env={"HERMES_HOME": str(home), "HERMES_LCM_EMBEDDING_MODEL": "none"},
        )
        made.append(host)
        return host

    yield make
    for host in made:
        host.close()

"""The worked example in examples/agent_loop.py runs end to end and stays valid."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType

from hermes_core import ContextHost

EXAMPLE = Path(__file__).parents[1] / "examples" / "agent_loop.py"


def load_example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("agent_loop_example", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses resolve annotations through sys.modules
    spec.loader.exec_module(module)
    return module


def test_the_loop_compacts_and_keeps_a_valid_history() -> None:
    example = load_example()
    host = ContextHost.from_config({"context": {"engine": "compressor"}}, env={})
    result = example.run_agent(host, turns=30, context_length=8_000)
    assert result["valid"]
    assert len(result["passes"]) >= 3
    assert all(after < before for _, before, after in result["passes"])
    assert result["status"]["passes_compressed"] == len(result["passes"])
    assert result["status"]["hook_failures"] == 0
    assert result["model_calls"] == 60


def test_the_example_script_exits_zero() -> None:
    done = subprocess.run(
        [sys.executable, str(EXAMPLE)], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert "compacted" in done.stdout
    assert "valid: True" in done.stdout

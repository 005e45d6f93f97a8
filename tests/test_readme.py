"""The README's examples run as written."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from hermes_core.testing import sample_conversation

README = (Path(__file__).parents[1] / "README.md").read_text(encoding="utf-8")


def python_block(after_heading: str) -> str:
    section = README.split(f"## {after_heading}", 1)[1]
    match = re.search(r"```python\n(.*?)```", section, re.DOTALL)
    assert match is not None
    return match.group(1)


def test_the_embedding_example_activates_the_configured_engine(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "config.yaml").write_text(
        "context:\n  engine: compressor\ncompression:\n  model_thresholds: {gpt-5: 0.6}\n",
        encoding="utf-8",
    )
    monkeypatch.setenv("HERMES_HOME", str(tmp_path))
    monkeypatch.delenv("HERMES_CONFIG", raising=False)
    monkeypatch.delenv("HERMES_CONTEXT_ENGINE", raising=False)
    history = sample_conversation(300)  # about 65,000 tokens: more than the tail keeps
    incoming = {"role": "user", "content": "and now?"}
    original = [*history, incoming]
    namespace: dict[str, object] = {
        "messages": original,
        "history": history,
        "incoming": incoming,
        "response_usage": {"prompt_tokens": 300_000, "completion_tokens": 10, "total_tokens": 1},
    }
    exec(python_block("Embedding the host"), namespace)
    host: Any = namespace["host"]
    assert host.engine.name == "compressor"
    # 60% of what a request may hold: the window less 8,192 tokens kept for the reply
    assert host.engine.threshold_tokens == int(0.6 * (400_000 - 8_192))
    assert namespace["request"] is original  # the compressor does not select: same list back
    assert len(namespace["messages"]) < len(history)  # type: ignore[arg-type]
    assert host.status()["passes_compressed"] == 1


def test_the_quickstart_has_exactly_two_commands() -> None:
    block = README.split("## Quickstart", 1)[1].split("```bash\n", 1)[1].split("```", 1)[0]
    assert block.strip().splitlines() == [
        'python -m pip install -e ".[dev]" -e ./hermes_lcm_example && python -m hermes_core replay',
        "python -m nox",
    ]

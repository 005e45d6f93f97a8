"""Every request leaves the model room for its reply, with every engine of this
repository, at windows from 2,000 to 128,000 tokens."""

from __future__ import annotations

from pathlib import Path

import pytest

from hermes_core import ContextHost
from tests.test_example_agent_loop import load_example

WINDOWS = (2_000, 4_000, 8_000, 32_000, 128_000)


@pytest.mark.parametrize("engine", ["compressor", "lcm"])
@pytest.mark.parametrize("window", WINDOWS)
def test_no_request_plus_the_replys_reserve_exceeds_the_window(
    tmp_path: Path, engine: str, window: int
) -> None:
    host = ContextHost.from_config(
        {"context": {"engine": engine}}, env={"HERMES_HOME": str(tmp_path)}
    )
    result = load_example().run_agent(host, turns=40, context_length=window)
    reserve = host.reply_reserve_tokens
    assert reserve == min(8_192, window // 4)
    assert result["largest_request"] + reserve <= window, result["largest_request"]
    assert result["valid"]
    host.close()

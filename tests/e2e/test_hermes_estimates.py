"""The stand-in's rough token estimates against Hermes Agent 0.19.0's own, on the same
messages: a plugin that imports them from ``agent.context_compressor`` counts the same
without Hermes as inside it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from hermes_core.sources.hermes_plugins._estimates import (
    estimate_messages_tokens_rough,
    estimate_tokens_rough,
)
from tests.e2e.environments import environment, last_json, run

pytestmark = pytest.mark.e2e

MESSAGES: list[dict[str, Any]] = [
    {"role": "system", "content": "You are a coding agent."},
    {"role": "user", "content": "fix the bug in src/module_3.py " * 7},
    {"role": "assistant", "content": None, "tool_calls": [{"id": "c1", "type": "function",
     "function": {"name": "read_file", "arguments": "{\"path\": \"a.py\"}"}}]},
    {"role": "tool", "tool_call_id": "c1", "content": "def f():\n    return 1\n" * 40},
    {"role": "user", "content": [{"type": "text", "text": "what is on this screenshot?"},
     {"type": "image_url", "image_url": {"url": "data:image/png;base64," + "A" * 50_000}}]},
    {"role": "user", "content": "Grüße aus Zürich, naïve café ünïcödé " * 3},
]  # fmt: skip

HERMES_SIDE = """
import json, sys
from agent.model_metadata import estimate_messages_tokens_rough, estimate_tokens_rough
messages = json.loads(sys.argv[1])
print(json.dumps({
    "each": [estimate_messages_tokens_rough([m]) for m in messages],
    "all": estimate_messages_tokens_rough(messages),
    "texts": [estimate_tokens_rough(str(m.get("content"))) for m in messages],
}))
"""


def test_the_estimates_equal_hermes_0_19s_on_the_same_messages(
    hermes_python: Path, tmp_path: Path
) -> None:
    out = run(
        hermes_python,
        "-c",
        HERMES_SIDE,
        json.dumps(MESSAGES),
        env=environment(tmp_path, hermes_python),
    )
    hermes = last_json(out.stdout)
    assert hermes["each"] == [estimate_messages_tokens_rough([m]) for m in MESSAGES]
    assert hermes["all"] == estimate_messages_tokens_rough(MESSAGES)
    assert hermes["texts"] == [estimate_tokens_rough(str(m.get("content"))) for m in MESSAGES]

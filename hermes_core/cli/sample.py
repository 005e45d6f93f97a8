"""The bundled sample conversation: a few hundred turns of an agent fixing a codebase."""

from __future__ import annotations

import json
import random
from typing import Any

__all__ = ["FACT", "sample_session"]

#: A fact stated early in the sample, for trying retrieval after compaction.
FACT = "For the record: the staging database lives on host kestrel-17, port 6543."

_MODULES = ["auth", "billing", "search", "export", "scheduler", "cache", "api", "cli", "models"]
_ASKS = [
    "The {m} tests fail since this morning, can you look?",
    "Please add type hints to {m}/core.py.",
    "Why is {m} so slow on large inputs?",
    "Refactor {m}/handlers.py into smaller functions.",
    "Add a test for the empty-input case in {m}.",
]


def sample_session(turns: int = 300, seed: int = 7) -> list[dict[str, Any]]:
    """A deterministic transcript: a system prompt, then turns of ask, tool calls, reply."""
    rng = random.Random(seed)
    messages: list[dict[str, Any]] = [
        {"role": "system", "content": "You are a careful coding agent working in a Python repo."}
    ]
    for turn in range(turns):
        module = rng.choice(_MODULES)
        ask = FACT if turn == 3 else rng.choice(_ASKS).format(m=module)
        messages.append({"role": "user", "content": ask})
        for call in range(rng.randint(1, 3)):
            call_id = f"call_{turn}_{call}"
            tool = rng.choice(["read_file", "run_tests", "grep"])
            path = f"src/{module}/{rng.choice(['core', 'handlers', 'utils'])}.py"
            messages.append(
                {
                    "role": "assistant",
                    "content": None,
                    "tool_calls": [
                        {
                            "id": call_id,
                            "type": "function",
                            "function": {"name": tool, "arguments": json.dumps({"path": path})},
                        }
                    ],
                }
            )
            if tool == "run_tests":
                body = f"FAILED tests/test_{module}.py::test_case_{turn} - AssertionError\n" * 3
            else:
                body = (
                    f"# {path}\n"
                    + "def handle(event):\n    return process(event)\n" * rng.randint(5, 30)
                )
            messages.append({"role": "tool", "tool_call_id": call_id, "content": body})
        messages.append(
            {
                "role": "assistant",
                "content": f"Done with turn {turn}: updated {module} and re-ran its tests.",
            }
        )
    return messages

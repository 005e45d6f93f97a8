"""Sample conversations for tests and benchmarks."""

from __future__ import annotations

import json
from typing import Any

__all__ = ["sample_conversation"]


def sample_conversation(turns: int = 30) -> list[dict[str, Any]]:
    """A valid conversation with a system prompt, user turns and tool calls."""
    messages: list[dict[str, Any]] = [{"role": "system", "content": "You are a helpful agent."}]
    for turn in range(turns):
        messages.append({"role": "user", "content": f"Step {turn}: read file_{turn}.py " * 8})
        call_id = f"call_{turn}"
        messages.append(
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": call_id,
                        "type": "function",
                        "function": {
                            "name": "read_file",
                            "arguments": json.dumps({"path": f"file_{turn}.py"}),
                        },
                    }
                ],
            }
        )
        messages.append(
            {"role": "tool", "tool_call_id": call_id, "content": f"contents {turn} " * 40}
        )
        messages.append({"role": "assistant", "content": f"file_{turn}.py looks fine."})
    return messages

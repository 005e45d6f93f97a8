"""Conversations for LCM tests."""

from __future__ import annotations

import json
from typing import Any


def turn(n: int, fact: str | None = None, body: int = 600) -> list[dict[str, Any]]:
    """One agent turn: an ask, a tool call, its result, a reply."""
    call_id = f"call_{n}"
    return [
        {"role": "user", "content": fact or f"Turn {n}: check file_{n}.py"},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": call_id,
                    "type": "function",
                    "function": {
                        "name": "read_file",
                        "arguments": json.dumps({"path": f"file_{n}.py"}),
                    },
                }
            ],
        },
        {
            "role": "tool",
            "tool_call_id": call_id,
            "content": f"contents of file {n} " * (body // 20),
        },
        {"role": "assistant", "content": f"File {n} is fine."},
    ]


def conversation(turns: int, facts: dict[int, str] | None = None) -> list[dict[str, Any]]:
    messages: list[dict[str, Any]] = [{"role": "system", "content": "You are an agent."}]
    for n in range(turns):
        messages += turn(n, (facts or {}).get(n))
    return messages

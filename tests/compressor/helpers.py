"""Builders of conversations for compressor tests."""

from __future__ import annotations

import json
from typing import Any


def call(call_id: str, name: str = "read_file", **arguments: Any) -> dict[str, Any]:
    return {
        "id": call_id,
        "type": "function",
        "function": {"name": name, "arguments": json.dumps(arguments)},
    }


def assistant_calls(*calls: dict[str, Any]) -> dict[str, Any]:
    return {"role": "assistant", "content": None, "tool_calls": list(calls)}


def tool(call_id: str, content: str) -> dict[str, Any]:
    return {"role": "tool", "tool_call_id": call_id, "content": content}


def user(text: str) -> dict[str, Any]:
    return {"role": "user", "content": text}


def reply(text: str) -> dict[str, Any]:
    return {"role": "assistant", "content": text}


def transcript(turns: int, body: int = 400) -> list[dict[str, Any]]:
    """System prompt, then per turn: user ask, tool call, tool result, assistant reply."""
    messages: list[dict[str, Any]] = [{"role": "system", "content": "You are an agent."}]
    for turn in range(turns):
        messages.append(user(f"Turn {turn}: fix the bug in src/module_{turn}.py"))
        messages.append(assistant_calls(call(f"c{turn}", path=f"src/module_{turn}.py")))
        messages.append(tool(f"c{turn}", f"# module {turn}\n" + "x = compute()\n" * (body // 14)))
        messages.append(reply(f"Fixed module {turn}."))
    return messages

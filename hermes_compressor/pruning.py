"""Cheap pruning before any summary: no LLM, and valid JSON stays valid JSON.

* identical long tool results (200+ characters) keep their latest copy; the
  earlier ones become back-references;
* long tool results become one-line descriptors (tool, what it did, outcome);
* long string values inside tool-call arguments are shortened inside the
  parsed JSON, so the arguments remain valid JSON.

Messages that change are new dicts; the input is never modified.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

__all__ = ["DEDUPE_MIN_CHARS", "DESCRIPTOR_MIN_CHARS", "prune"]

DEDUPE_MIN_CHARS = 200
DESCRIPTOR_MIN_CHARS = 600
ARGUMENT_MAX_CHARS = 200
_ERROR_MARKERS = ("error", "traceback", "exception", "failed", "not found", "denied")


def _shorten(value: Any) -> Any:
    if isinstance(value, str) and len(value) > ARGUMENT_MAX_CHARS:
        return f"{value[:ARGUMENT_MAX_CHARS]}...[{len(value) - ARGUMENT_MAX_CHARS} more chars]"
    if isinstance(value, dict):
        return {k: _shorten(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_shorten(v) for v in value]
    return value


def shorten_arguments(arguments: str) -> str:
    """Tool-call arguments with long strings shortened; unparsable text is returned as is."""
    if len(arguments) <= ARGUMENT_MAX_CHARS:
        return arguments
    try:
        parsed = json.loads(arguments)
    except ValueError:
        return arguments
    return json.dumps(_shorten(parsed), ensure_ascii=False)


def _describe_call(function: Any) -> str:
    if not isinstance(function, dict):
        return "a tool"
    name = function.get("name") or "tool"
    arguments = function.get("arguments")
    if isinstance(arguments, str) and arguments:
        brief = arguments if len(arguments) <= 80 else arguments[:77] + "..."
        return f"{name}({brief})"
    return f"{name}()"


def descriptor(content: str, function: Any) -> str:
    """One line saying which tool ran, on what, and how it ended."""
    head = content[:300].lower()
    outcome = "failed" if any(marker in head for marker in _ERROR_MARKERS) else "ok"
    first = next((line.strip() for line in content.splitlines() if line.strip()), "")
    if len(first) > 100:
        first = first[:97] + "..."
    call = _describe_call(function)
    return f"[pruned tool result] {call} -> {outcome}: {first} ({len(content)} chars)"


def prune(messages: Sequence[Any], descriptor_min_chars: int = DESCRIPTOR_MIN_CHARS) -> list[Any]:
    """A pruned copy of ``messages`` (see the module docstring); tool results of
    ``descriptor_min_chars`` or more become descriptors."""
    functions: dict[Any, Any] = {}
    for message in messages:
        if isinstance(message, dict) and message.get("role") == "assistant":
            for call in message.get("tool_calls") or ():
                if isinstance(call, dict):
                    functions[call.get("id")] = call.get("function")
    latest: dict[str, Any] = {}
    out: list[Any] = list(messages)
    for index in range(len(out) - 1, -1, -1):
        message = out[index]
        if not isinstance(message, dict):
            continue
        role = message.get("role")
        if role == "tool":
            content = message.get("content")
            if not isinstance(content, str) or len(content) < DEDUPE_MIN_CHARS:
                continue
            call_id = message.get("tool_call_id")
            later = latest.get(content)
            if later is not None:
                text = f"[same output as the later result of tool call {later}]"
            else:
                latest[content] = call_id
                if len(content) < descriptor_min_chars:
                    continue
                text = descriptor(content, functions.get(call_id))
            out[index] = {**message, "content": text}
        elif role == "assistant" and message.get("tool_calls"):
            calls = message["tool_calls"]
            if not isinstance(calls, list):
                continue
            changed = False
            new_calls = []
            for call in calls:
                function = call.get("function") if isinstance(call, dict) else None
                arguments = function.get("arguments") if isinstance(function, dict) else None
                if (
                    isinstance(function, dict)
                    and isinstance(arguments, str)
                    and len(arguments) > ARGUMENT_MAX_CHARS
                ):
                    shorter = shorten_arguments(arguments)
                    if shorter != arguments:
                        call = {**call, "function": {**function, "arguments": shorter}}
                        changed = True
                new_calls.append(call)
            if changed:
                out[index] = {**message, "tool_calls": new_calls}
    return out

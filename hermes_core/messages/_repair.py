"""Repairing tool-call pairs, for engines that cut a history into pieces."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

__all__ = ["sanitize_tool_pairs"]


def _call_id(call: Any) -> Any:
    return call.get("id") if isinstance(call, dict) else None


def sanitize_tool_pairs(messages: Sequence[Any]) -> list[Any]:
    """A copy of ``messages`` in which every tool call and tool result has its partner.

    Tool results that answer no pending call of the assistant message just
    before them (orphans, duplicates) are removed; tool calls that get no
    result are stripped from their assistant message, and an assistant
    message left with neither calls nor content is removed. Other messages
    are kept as they are, in order. The result passes
    :func:`~hermes_core.validate_messages` as far as tool pairs go.
    """
    out: list[Any] = []
    index = 0
    count = len(messages)
    while index < count:
        message = messages[index]
        index += 1
        if not isinstance(message, dict):
            out.append(message)
            continue
        role = message.get("role")
        if role == "tool":
            continue  # a result with no assistant call right before it
        calls = message.get("tool_calls")
        if role != "assistant" or not isinstance(calls, list) or not calls:
            out.append(message)
            continue
        wanted = {_call_id(call) for call in calls} - {None}
        results = []
        answered: set[Any] = set()
        while index < count and isinstance(messages[index], dict):
            follower = messages[index]
            if follower.get("role") != "tool":
                break
            index += 1
            call_id = follower.get("tool_call_id")
            if call_id in wanted and call_id not in answered:
                answered.add(call_id)
                results.append(follower)
        kept_calls = [call for call in calls if _call_id(call) in answered]
        if len(kept_calls) == len(calls):
            out.append(message)
        elif kept_calls:
            out.append({**message, "tool_calls": kept_calls})
        else:
            stripped = {k: v for k, v in message.items() if k != "tool_calls"}
            if stripped.get("content"):
                out.append(stripped)
        out.extend(results)
    return out

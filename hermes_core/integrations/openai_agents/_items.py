"""The Agents SDK's input items (Responses API format) as the OpenAI chat messages an
engine reads, and back.

Each chat message stands for a group of items: a user, system, developer or assistant
message item is one message; a run of ``function_call`` items is one assistant message
with ``tool_calls``; a ``function_call_output`` is a ``tool`` message. Items with no chat
form (reasoning, hosted tool calls) travel with the message that follows them, so a
message the engine keeps brings them back, and one it drops takes them along.
:class:`ItemMap` gives back the very items a kept message stood for; only what the
engine made (a summary) becomes new items.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from hermes_core.integrations._alignment import Alignment, message_key

__all__ = ["ItemMap", "item_text", "items_from_message", "to_messages"]

_MESSAGE_ROLES = ("user", "system", "developer", "assistant")


def item_text(content: Any) -> Any:
    """A message item's content as chat content: text parts joined, other parts kept."""
    if not isinstance(content, list):
        return content
    if all(isinstance(p, dict) and p.get("type") in ("input_text", "output_text") for p in content):
        return "".join(str(p.get("text", "")) for p in content)
    return content


def _is_message(item: Any) -> bool:
    return (
        isinstance(item, dict)
        and item.get("type", "message") == "message"
        and (item.get("role") in _MESSAGE_ROLES)
    )


def _output_text(output: Any) -> str:
    if isinstance(output, str):
        return output
    if isinstance(output, list):  # structured outputs: their text parts
        texts = [str(p.get("text", "")) for p in output if isinstance(p, dict) and "text" in p]
        if texts:
            return "".join(texts)
    return json.dumps(output, default=str)


def to_messages(items: Sequence[Any]) -> tuple[list[dict[str, Any]], list[list[Any]]]:
    """``items`` as chat messages, and for each message the items it stands for."""
    messages: list[dict[str, Any]] = []
    groups: list[list[Any]] = []
    waiting: list[Any] = []  # items with no chat form, until the next message
    calls: list[dict[str, Any]] = []
    call_items: list[Any] = []

    def flush_calls() -> None:
        if calls:
            messages.append({"role": "assistant", "content": None, "tool_calls": list(calls)})
            groups.append([*waiting, *call_items])
            waiting.clear()
            calls.clear()
            call_items.clear()

    for item in items:
        kind = item.get("type") if isinstance(item, dict) else None
        if kind == "function_call":
            arguments = item.get("arguments") or "{}"
            calls.append(
                {
                    "id": item.get("call_id") or "",
                    "type": "function",
                    "function": {"name": item.get("name") or "", "arguments": arguments},
                }
            )
            call_items.append(item)
            continue
        if calls and not _is_message(item) and kind != "function_call_output":
            call_items.append(item)  # reasoning between calls: the calls stay one message
            continue
        flush_calls()
        if _is_message(item):
            message = {"role": item["role"], "content": item_text(item.get("content"))}
        elif kind == "function_call_output":
            message = {
                "role": "tool",
                "tool_call_id": item.get("call_id") or "",
                "content": _output_text(item.get("output")),
            }
        else:
            waiting.append(item)
            continue
        messages.append(message)
        groups.append([*waiting, item])
        waiting.clear()
    flush_calls()
    if waiting:  # trailing items with no chat form: they go with the last message
        if groups:
            groups[-1].extend(waiting)
        else:
            messages.append({"role": "user", "content": ""})
            groups.append(list(waiting))
    return messages, groups


def items_from_message(message: dict[str, Any]) -> list[dict[str, Any]]:
    """New items for a chat message the engine made."""
    role = message.get("role")
    if role == "tool":
        return [
            {
                "type": "function_call_output",
                "call_id": message.get("tool_call_id") or "",
                "output": message.get("content") or "",
            }
        ]
    items: list[dict[str, Any]] = []
    content = message.get("content")
    if content not in (None, "") or not message.get("tool_calls"):
        items.append({"role": role if role in _MESSAGE_ROLES else "user", "content": content or ""})
    for call in message.get("tool_calls") or []:
        function = call.get("function") or {}
        items.append(
            {
                "type": "function_call",
                "call_id": call.get("id") or "",
                "name": function.get("name") or "",
                "arguments": function.get("arguments") or "{}",
            }
        )
    return items


class ItemMap:
    """One conversion for an engine and back: kept messages become their original items
    (see ``Alignment``). ``messages`` must stay as they were handed out (the host
    gives engines copies): they are compared only when something comes back, so input
    the engine leaves alone costs no comparison."""

    def __init__(self, items: Sequence[Any]) -> None:
        self.messages, self._groups = to_messages(items)

    def items(self, messages: Sequence[dict[str, Any]]) -> list[Any]:
        """The items ``messages`` stand for."""
        alignment = Alignment(message_key(m) for m in self.messages)
        back: list[Any] = []
        for message, match in zip(messages, alignment.matches(messages), strict=True):
            back.extend(items_from_message(message) if match is None else self._groups[match])
        return back

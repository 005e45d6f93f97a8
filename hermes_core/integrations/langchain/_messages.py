"""LangChain messages to OpenAI-format messages (what engines read) and back.

:func:`to_openai` and :func:`from_openai` keep every field both formats
have: role, content (text or a list of content blocks, as given), tool calls
with their ids, names and arguments, a tool result's ``tool_call_id`` and
``name``, a message's ``name``. What only LangChain has (the message ``id``,
``response_metadata``, ``usage_metadata``, ``additional_kwargs``) is kept by
:class:`MessageMap`: a message an engine hands back unchanged comes back as
the very LangChain object it was made from.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any

from langchain_core.messages import (
    AIMessage,
    BaseMessage,
    ChatMessage,
    HumanMessage,
    SystemMessage,
    ToolMessage,
)

from hermes_core.integrations._alignment import Alignment, message_key

__all__ = ["MessageMap", "from_openai", "to_openai"]


def _call_to_openai(call: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": call.get("id") or "",
        "type": "function",
        "function": {"name": call["name"], "arguments": json.dumps(call.get("args") or {})},
    }


def to_openai(message: BaseMessage) -> dict[str, Any]:
    """One LangChain message as an OpenAI chat message."""
    content: Any = message.content
    if isinstance(message, SystemMessage):
        converted: dict[str, Any] = {"role": "system", "content": content}
    elif isinstance(message, HumanMessage):
        converted = {"role": "user", "content": content}
    elif isinstance(message, AIMessage):
        converted = {"role": "assistant", "content": content}
        if message.tool_calls:
            converted["tool_calls"] = [_call_to_openai(dict(c)) for c in message.tool_calls]
            if content == "":
                converted["content"] = None  # what the API sends beside tool calls
    elif isinstance(message, ToolMessage):
        converted = {"role": "tool", "tool_call_id": message.tool_call_id, "content": content}
    elif isinstance(message, ChatMessage):
        converted = {"role": message.role, "content": content}
    else:
        raise TypeError(
            f"cannot hand a {type(message).__name__} to a context engine: expected a "
            "SystemMessage, HumanMessage, AIMessage, ToolMessage or ChatMessage"
        )
    if message.name is not None:
        converted["name"] = message.name
    return converted


def _arguments(text: Any) -> dict[str, Any]:
    if isinstance(text, dict):
        return text
    try:
        parsed = json.loads(text or "{}")
    except (TypeError, ValueError):
        return {"arguments": text}  # kept, not guessed: the model's text as it was
    return parsed if isinstance(parsed, dict) else {"arguments": parsed}


def from_openai(message: dict[str, Any]) -> BaseMessage:
    """One OpenAI chat message as a LangChain message (a fresh object)."""
    role = message.get("role")
    content = message.get("content")
    name = message.get("name")
    if content is None:
        content = ""
    if role == "system":
        return SystemMessage(content=content, name=name)
    if role == "user":
        return HumanMessage(content=content, name=name)
    if role == "assistant":
        calls = [
            {
                "name": call["function"]["name"],
                "args": _arguments(call["function"].get("arguments")),
                "id": call.get("id"),
                "type": "tool_call",
            }
            for call in message.get("tool_calls") or []
        ]
        return AIMessage(content=content, name=name, tool_calls=calls)
    if role == "tool":
        return ToolMessage(
            content=content, tool_call_id=message.get("tool_call_id") or "", name=name
        )
    return ChatMessage(role=str(role), content=content, name=name)


class MessageMap:
    """One conversion for an engine and back. It remembers each LangChain message it
    converts, so that what the engine hands back unchanged becomes the original object
    again (same id, same metadata) and only what the engine made (a summary, a changed
    message) is new. Equal messages map back one to one (see
    ``Alignment``). The converted messages must stay as they were handed out (the host
    gives engines copies): they are compared only when something comes back, so a
    request the engine leaves alone costs no comparison."""

    def __init__(self) -> None:
        self._messages: list[BaseMessage] = []
        self._converted: list[dict[str, Any]] = []

    def to_openai(self, messages: Iterable[BaseMessage]) -> list[dict[str, Any]]:
        """``messages`` converted, each remembered."""
        converted = []
        for message in messages:
            plain = to_openai(message)
            self._messages.append(message)
            self._converted.append(plain)
            converted.append(plain)
        return converted

    def from_openai(self, messages: Sequence[dict[str, Any]]) -> list[BaseMessage]:
        """``messages`` as LangChain messages: a remembered original where one matches."""
        matches = Alignment(message_key(m) for m in self._converted).matches(messages)
        return [
            from_openai(m) if i is None else self._messages[i]
            for m, i in zip(messages, matches, strict=True)
        ]

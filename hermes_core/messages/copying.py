"""Copies of message lists that share nothing mutable with the originals.

Engines receive these, so nothing an engine does to what it was given can
reach the agent's history. Strings, numbers and other immutable leaves are
shared; every dict and list is new. The two common OpenAI shapes (a flat
message, and an assistant message with function tool calls) take specialised
paths built on C-level ``dict.copy``; anything else is copied recursively.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

__all__ = ["copy_message", "copy_messages"]

_CONTAINERS = (dict, list)
#: Keys whose values are scalars in every OpenAI-format message.
_FLAT_KEYS = frozenset({"role", "content", "name", "tool_call_id", "refusal"})
_CALLING_KEYS = _FLAT_KEYS | {"tool_calls"}
_CALL_KEYS = frozenset({"id", "type", "function", "index"})
_FUNCTION_KEYS = frozenset({"name", "arguments"})


def _copy_value(value: Any) -> Any:
    cls = value.__class__
    if cls is dict:
        return {k: _copy_value(v) if v.__class__ in _CONTAINERS else v for k, v in value.items()}
    if cls is list:
        return [_copy_value(v) if v.__class__ in _CONTAINERS else v for v in value]
    return value


def _copy_call(call: Any) -> Any:
    function = call.get("function") if call.__class__ is dict else None
    if (
        function.__class__ is dict
        and call.keys() <= _CALL_KEYS
        and function.keys() <= _FUNCTION_KEYS
        and function.get("arguments").__class__ is not dict
    ):
        copied = call.copy()
        copied["function"] = function.copy()
        return copied
    return _copy_value(call)


def copy_message(message: Any) -> Any:
    """A copy of one message sharing no dict or list with it; non-dicts are returned as they are."""
    if message.__class__ is not dict:
        return message
    keys = message.keys()
    if keys <= _FLAT_KEYS and message.get("content").__class__ is not list:
        return message.copy()
    calls = message.get("tool_calls")
    if (
        keys <= _CALLING_KEYS
        and calls.__class__ is list
        and message.get("content").__class__ is not list
    ):
        copied = message.copy()
        copied["tool_calls"] = [_copy_call(call) for call in calls]
        return copied
    return _copy_value(message)


def copy_messages(messages: Iterable[Any], memo: dict[int, Any] | None = None) -> list[Any]:
    """A new list of :func:`copy_message` copies.

    ``memo`` maps ``id(original)`` to its copy, so a message that appears in
    several lists passed to one call (history and request) is copied once
    and stays one object, as it was.
    """
    if memo is None:
        return [copy_message(m) for m in messages]
    out = []
    for message in messages:
        key = id(message)
        copied = memo.get(key)
        if copied is None:
            copied = memo[key] = copy_message(message)
        out.append(copied)
    return out

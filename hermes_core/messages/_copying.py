"""Copies of message lists that share nothing mutable with the originals.

Engines receive these, so nothing an engine does to what it was given can
reach the agent's history. Strings, numbers and other immutable leaves are
shared; every dict, list and tuple is new, and any other object is deep-copied.
The two common OpenAI shapes (a flat message of scalars, and an assistant
message with function tool calls of scalars) take specialised paths built on
C-level ``dict.copy``; any other shape, wherever it nests a container, is
copied recursively.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable
from typing import Any

__all__ = ["copy_message", "copy_messages"]

#: Values shared as they are: immutable, and never containers.
_SCALARS = frozenset({str, int, float, bool, type(None), bytes})
#: Keys whose values are scalars in every OpenAI-format message.
_FLAT_KEYS = frozenset({"role", "content", "name", "tool_call_id", "refusal"})
_CALLING_KEYS = _FLAT_KEYS | {"tool_calls"}
_CALL_KEYS = frozenset({"id", "type", "function", "index"})
_FUNCTION_KEYS = frozenset({"name", "arguments"})


#: Containers nested deeper than this are copied by a loop instead of by recursion, so no
#: depth of nesting (a tool call's arguments nested thousands deep) can raise RecursionError.
_RECURSION_DEPTH = 64


def _copy_value(value: Any, depth: int = 0) -> Any:
    cls = value.__class__
    if cls in _SCALARS:
        return value
    if depth > _RECURSION_DEPTH:
        return _copy_nested(value)
    if cls is dict:
        return {
            k: v if v.__class__ in _SCALARS else _copy_value(v, depth + 1) for k, v in value.items()
        }
    if cls is list:
        return [v if v.__class__ in _SCALARS else _copy_value(v, depth + 1) for v in value]
    if cls is tuple:
        return tuple(_copy_value(v, depth + 1) for v in value)
    return copy.deepcopy(value)


def _copy_nested(root: Any) -> Any:
    """A copy of ``root`` made by a loop, at any depth; a container met twice (shared, or a
    cycle) is copied once and stays shared. Tuples and other objects go to ``deepcopy``."""
    memo: dict[int, Any] = {}
    pending: list[tuple[Any, Any]] = []

    def shell(value: Any) -> Any:
        cls = value.__class__
        if cls in _SCALARS:
            return value
        found = memo.get(id(value))
        if found is not None:
            return found
        if cls is dict:
            made: Any = {}
        elif cls is list:
            made = []
        else:
            return copy.deepcopy(value)
        memo[id(value)] = made
        pending.append((value, made))
        return made

    top = shell(root)
    while pending:
        original, made = pending.pop()
        if original.__class__ is dict:
            for key, value in original.items():
                made[key] = shell(value)
        else:
            made.extend(shell(value) for value in original)
    return top


def _scalars(mapping: dict[Any, Any]) -> bool:
    """Whether every value of ``mapping`` is a scalar (a plain loop: this is the hot path)."""
    for value in mapping.values():  # noqa: SIM110 - all() over a generator costs more here
        if value.__class__ not in _SCALARS:
            return False
    return True


def _copy_call(call: Any) -> Any:
    function = call.get("function") if call.__class__ is dict else None
    if (
        function.__class__ is dict
        and call.keys() <= _CALL_KEYS
        and function.keys() <= _FUNCTION_KEYS
        and call.get("id").__class__ in _SCALARS
        and call.get("type").__class__ in _SCALARS
        and call.get("index").__class__ in _SCALARS
        and _scalars(function)
    ):
        copied = call.copy()
        copied["function"] = function.copy()
        return copied
    return _copy_value(call)


def copy_message(message: Any) -> Any:
    """A copy of one message sharing no mutable object with it, whatever its shape;
    non-dicts are copied the same way."""
    if message.__class__ is not dict:
        return _copy_value(message)
    keys = message.keys()
    if keys <= _FLAT_KEYS:
        for value in message.values():  # inline, not _scalars(): the most common message
            if value.__class__ not in _SCALARS:
                return _copy_value(message)
        return message.copy()
    calls = message.get("tool_calls")
    if (
        keys <= _CALLING_KEYS
        and calls.__class__ is list
        and message.get("content").__class__ in _SCALARS
        and message.get("name").__class__ in _SCALARS
        and message.get("refusal").__class__ in _SCALARS
        and message.get("role").__class__ in _SCALARS
        and message.get("tool_call_id").__class__ in _SCALARS
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

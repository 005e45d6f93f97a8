"""Is a list an OpenAI chat-completions message sequence a provider will accept?"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["MAX_NESTING", "ROLES", "MessageProblem", "validate_messages"]

#: Roles a chat-completions request may carry.
ROLES = frozenset({"system", "developer", "user", "assistant", "tool", "function"})
#: How deep a message may nest objects and arrays: deeper, an agent's own ``json.dumps``
#: (and many providers' parsers) refuse the request.
MAX_NESTING = 256
_SCALARS = frozenset({str, int, float, bool, type(None)})


@dataclass(frozen=True)
class MessageProblem:
    """One reason a provider would reject the sequence; ``index`` is the message's position.

    ``repairable`` is True for an orphaned tool result or an unanswered tool
    call, which :func:`~hermes_core.sanitize_tool_pairs` removes (the repair
    Hermes Agent makes before every provider call).
    """

    index: int
    problem: str
    repairable: bool = False

    def __str__(self) -> str:
        return f"message {self.index}: {self.problem}"


def _call_ids(message: dict[str, Any], index: int, problems: list[MessageProblem]) -> list[str]:
    calls = message.get("tool_calls")
    if calls is None:
        return []
    if not isinstance(calls, list):
        problems.append(MessageProblem(index, "tool_calls is not a list"))
        return []
    ids = []
    for call in calls:
        call_id = call.get("id") if isinstance(call, dict) else None
        function = call.get("function") if isinstance(call, dict) else None
        if not isinstance(call_id, str) or not call_id:
            problems.append(MessageProblem(index, "a tool call has no id"))
        elif not isinstance(function, dict) or not function.get("name"):
            problems.append(MessageProblem(index, f"tool call {call_id!r} names no function"))
        else:
            ids.append(call_id)
    return ids


def _nesting_problem(message: dict[str, Any]) -> str | None:
    """Why ``message`` cannot be written as JSON: a container that contains itself, or
    nesting deeper than :data:`MAX_NESTING`; None when it can (checked by a loop, so no
    depth raises RecursionError)."""
    for value in message.values():  # the common, flat message costs one pass
        if value.__class__ not in _SCALARS:
            break
    else:
        return None
    on_path: set[int] = set()
    # (container, depth, leaving): a container is on the path between its two visits
    stack: list[tuple[Any, int, bool]] = [(message, 1, False)]
    while stack:
        node, depth, leaving = stack.pop()
        if leaving:
            on_path.discard(id(node))
            continue
        if id(node) in on_path:
            return "contains itself (a cycle): it cannot be written as JSON"
        if depth > MAX_NESTING:
            return f"nests deeper than {MAX_NESTING} levels"
        on_path.add(id(node))
        stack.append((node, depth, True))
        children = node.values() if isinstance(node, dict) else node
        for child in children:
            if isinstance(child, (dict, list, tuple)):
                stack.append((child, depth + 1, False))
    return None


def _unanswered(pending: dict[str, int], problems: list[MessageProblem]) -> None:
    for call_id, at in pending.items():
        problems.append(MessageProblem(at, f"tool call {call_id!r} has no result", True))


def validate_messages(messages: Sequence[Any]) -> list[MessageProblem]:
    """Every problem in ``messages``; an empty list means the sequence is valid.

    Checks: each item is a dict with a known ``role``; ``content`` is a
    string, a list of parts, or None; every ``tool_calls`` id of an assistant
    message is answered by a ``tool`` message with that ``tool_call_id``
    before any other role follows; no ``tool`` message answers a call that is
    not pending (an orphan); and no message contains itself or nests deeper than
    :data:`~hermes_core.messages.MAX_NESTING` levels (it could not be written as
    JSON).
    """
    problems: list[MessageProblem] = []
    pending: dict[str, int] = {}
    roles = ROLES
    for index, message in enumerate(messages):
        if not isinstance(message, dict):
            problems.append(MessageProblem(index, f"is a {type(message).__name__}, not a dict"))
            continue
        role = message.get("role")
        content = message.get("content")
        if (
            content is not None
            and content.__class__ is not str
            and not isinstance(content, (str, list))
        ):
            problems.append(
                MessageProblem(index, f"content is a {type(content).__name__}, not text or parts")
            )
        shape = _nesting_problem(message)
        if shape is not None:
            problems.append(MessageProblem(index, shape))
        if role == "tool":
            call_id = message.get("tool_call_id")
            if not isinstance(call_id, str) or pending.pop(call_id, None) is None:
                problems.append(
                    MessageProblem(
                        index, f"tool result {call_id!r} follows no pending tool call", True
                    )
                )
            continue
        if role.__class__ is not str or role not in roles:  # a list role is unhashable
            problems.append(MessageProblem(index, f"unknown role {role!r}"))
            continue
        if pending:
            _unanswered(pending, problems)
            pending = {}
        if role == "assistant" and "tool_calls" in message:
            pending = {call_id: index for call_id in _call_ids(message, index, problems)}
    if pending:
        _unanswered(pending, problems)
    return problems

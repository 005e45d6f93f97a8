"""A pass that throws the conversation away is not a success.

A pass may fold anything but the turn in progress: the input's latest
exchange (its last user message and every message after it) is what the
model answers next. A result that keeps nothing of that exchange has thrown
the conversation away, however valid the list: a plugin whose own fallback
hands back the system prompt and a note is one. The host refuses such a
result like any invalid one (``context_engine.compress_failed
reason=invalid``, counted in ``pass_invalid_results``), and the agent keeps
its messages.

A message of the exchange is kept when the result holds it as a provider
sees it (role, content, tool calls), or holds a message of the same role
whose text contains all of its text (the compressor merges its summary into
the first message it keeps). An exchange with nothing in it (no content, no
tool call) has nothing to keep.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from hermes_core.messages import sanitize_tool_pairs, text_of

__all__ = ["discarded"]

#: What a provider sees of a message.
_VISIBLE = ("role", "content", "tool_calls", "tool_call_id", "name")


def _seen(message: Any) -> str:
    if not isinstance(message, dict):
        return repr(message)
    view = {key: message[key] for key in _VISIBLE if key in message}
    return json.dumps(view, sort_keys=True, default=repr)


def _has_substance(message: Any) -> bool:
    """Whether ``message`` carries anything: text, other parts (an image) or tool calls."""
    return isinstance(message, dict) and bool(message.get("content") or message.get("tool_calls"))


def _kept(message: dict[str, Any], result: Sequence[Any], seen: set[str]) -> bool:
    if _seen(message) in seen:
        return True
    text = text_of(message)
    role = message.get("role")
    return bool(text) and any(
        isinstance(other, dict) and other.get("role") == role and text in text_of(other)
        for other in result
    )


def discarded(original: Sequence[Any], result: Sequence[Any]) -> str | None:
    """Why ``result`` throws away the conversation of ``original`` (as text), or None when it
    keeps something of the latest exchange (see the module docstring). Tool results that
    answer no call and calls that got no result are not part of it: no provider accepts
    them, and every engine may drop them."""
    messages = sanitize_tool_pairs(list(original))
    last_user = next(
        (
            i
            for i in range(len(messages) - 1, -1, -1)
            if isinstance(messages[i], dict) and messages[i].get("role") == "user"
        ),
        None,
    )
    if last_user is None:
        return None
    exchange = messages[last_user:]
    if not any(_has_substance(message) for message in exchange):
        return None
    seen = {_seen(message) for message in result}
    if any(isinstance(m, dict) and _kept(m, result, seen) for m in exchange):
        return None
    return (
        f"kept nothing of the latest exchange (the user message at {last_user} and the "
        f"{len(messages) - last_user - 1} after it) in {len(result)} of {len(messages)} "
        "messages: the conversation would be thrown away"
    )

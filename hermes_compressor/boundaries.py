"""Where the protected head ends and the protected tail begins.

The middle between them is what a pass summarises. Neither boundary ever
separates an assistant ``tool_calls`` message from its ``tool`` results.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from hermes_compressor.settings import CompressorSettings
from hermes_core import role_of

__all__ = ["Boundaries", "find_boundaries", "is_summary"]


def is_summary(message: Any, prefix: str) -> bool:
    """Whether ``message`` is (or starts with) a summary this compressor wrote."""
    content = message.get("content") if isinstance(message, dict) else None
    return isinstance(content, str) and content.startswith(prefix)


def _has_text(message: Any) -> bool:
    content = message.get("content") if isinstance(message, dict) else None
    if isinstance(content, str):
        return bool(content.strip())
    return isinstance(content, list) and bool(content)


@dataclass(frozen=True)
class Boundaries:
    """``messages[:head]`` and ``messages[tail:]`` stay verbatim; ``[head:tail]`` is summarised."""

    head: int
    tail: int

    @property
    def middle_size(self) -> int:
        return max(0, self.tail - self.head)


def _start_of_group(messages: Sequence[Any], index: int) -> int:
    """Move ``index`` back over tool results to the assistant message that made the calls."""
    while index > 0 and role_of(messages[index]) == "tool":
        index -= 1
    return index


def find_boundaries(
    messages: Sequence[Any],
    tokens: Sequence[int],
    settings: CompressorSettings,
    tail_budget: int,
    summary_prefix: str,
    most_tail_messages: int | None = None,
    tail_start: Callable[[Sequence[Any], int], int] | None = None,
) -> Boundaries:
    """Head: system prompt plus ``protect_first_n``; tail: budgeted, with the guarantees below.

    The tail takes the last ``protect_last_n`` messages while they fit twice
    ``tail_budget`` tokens, and earlier ones while the tail fits
    ``tail_budget``: the budget scales with the window, so on a small one a
    pass still frees room. Then it grows to hold ``min_tail_user_messages``
    user messages, the last real user message (not a summary) and the last
    assistant reply with text, and never starts on a tool result. With
    ``most_tail_messages`` the budgeted tail is first cut to that many messages
    (the guarantees still apply): a manual pass over a conversation that fits the
    budget whole. ``tail_start(messages, head)``, when given, says where the tail
    starts instead of the budget (the guarantees still apply).
    """
    count = len(messages)
    head = 0
    while head < count and role_of(messages[head]) == "system":
        head += 1
    head = min(count, head + settings.protect_first_n)
    while head < count and role_of(messages[head]) == "tool":
        head += 1  # the head keeps the results of a call it holds

    tail = count
    used = 0
    while tail_start is None and tail > head:
        cost = tokens[tail - 1]
        protected = count - tail < settings.protect_last_n
        if used + cost > (2 * tail_budget if protected else tail_budget):
            break  # on a small window the budget wins, so a pass always frees room
        used += cost
        tail -= 1
    if tail_start is not None:
        tail = max(head, min(count, tail_start(messages, head)))
    if most_tail_messages is not None:
        tail = max(tail, count - most_tail_messages, head)

    users = 0
    last_user = last_reply = None
    for index in range(count - 1, head - 1, -1):
        role = role_of(messages[index])
        if role == "user" and not is_summary(messages[index], summary_prefix):
            if last_user is None:
                last_user = index
            if index >= tail:
                users += 1
            elif users < settings.min_tail_user_messages:
                users += 1
                tail = index
        elif role == "assistant" and last_reply is None and _has_text(messages[index]):
            last_reply = index
        if (
            last_user is not None
            and last_reply is not None
            and index < tail
            and (users >= settings.min_tail_user_messages)
        ):
            break
    for keep in (last_user, last_reply):
        if keep is not None and keep < tail:
            tail = keep
    tail = max(head, _start_of_group(messages, tail) if tail < count else tail)
    return Boundaries(head, tail)

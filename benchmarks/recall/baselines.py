"""The baselines of the protocol: keep-the-tail truncation, and packing turns in an order
(BM25's, MiniLM's, their fusion) as the data's README describes: from the question's tokens
+ 10, turns in that order while the total stays within B, stopping at the first turn that
does not fit."""

from __future__ import annotations

from typing import Any

from recall.locomo import Conversation, Question
from recall.protocol import request_tokens

__all__ = ["pack_in_order", "truncate"]


def truncate(conversation: Conversation, question: Question, budget: int) -> list[dict[str, Any]]:
    """The system message, the most recent turns that fit, the question."""
    fixed = [conversation.messages[0], question.message]
    room = budget - request_tokens(fixed)
    kept: list[dict[str, Any]] = []
    for message in reversed(conversation.turns):
        cost = request_tokens([message])
        if cost > room:
            break
        kept.insert(0, message)
        room -= cost
    return [conversation.messages[0], *kept, question.message]


def pack_in_order(
    conversation: Conversation,
    question: Question,
    budget: int,
    order: list[int],
    envelope: int = 0,
) -> list[dict[str, Any]]:
    """The system message, the turns of ``order`` that fit (until the first that does not),
    in conversation order, and the question. ``envelope`` tokens are counted per message
    besides its content (0 as the protocol counts; the host and lcm count 4)."""
    total = request_tokens([question.message]) + 10 + 2 * envelope
    chosen: list[int] = []
    for i in order:
        cost = request_tokens([conversation.turns[i]]) + envelope
        if total + cost > budget:
            break
        chosen.append(i)
        total += cost
    turns = [conversation.turns[i] for i in sorted(chosen)]
    return [conversation.messages[0], *turns, question.message]

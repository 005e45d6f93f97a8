"""The two baselines of the protocol: keep-the-tail truncation and a BM25 packer."""

from __future__ import annotations

from typing import Any

from recall.bm25 import BM25
from recall.locomo import Conversation, Question
from recall.protocol import request_tokens

__all__ = ["bm25_pack", "bm25_top", "truncate"]


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


def bm25_pack(
    conversation: Conversation,
    question: Question,
    budget: int,
    index: BM25 | None = None,
    envelope: int = 0,
) -> list[dict[str, Any]]:
    """The system message, the BM25-best turns that fit (in conversation order), the question.

    ``envelope`` tokens are counted per message besides its content (the host counts 4).
    """
    index = index or BM25([m["content"] for m in conversation.turns])
    fixed = [conversation.messages[0], question.message]
    room = budget - request_tokens(fixed) - 2 * envelope
    chosen: list[int] = []
    for i in index.ranking(question.text):
        cost = request_tokens([conversation.turns[i]]) + envelope
        if cost <= room:
            chosen.append(i)
            room -= cost
        if room <= 0:
            break
    turns = [conversation.turns[i] for i in sorted(chosen)]
    return [conversation.messages[0], *turns, question.message]


def bm25_top(
    conversation: Conversation, question: Question, k: int = 10, index: BM25 | None = None
) -> list[str]:
    """The contents of the ``k`` BM25-best turns."""
    index = index or BM25([m["content"] for m in conversation.turns])
    return [conversation.turns[i]["content"] for i in index.ranking(question.text)[:k]]

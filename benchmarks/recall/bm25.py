"""Okapi BM25 over a conversation's turns (k1 1.5, b 0.75, lowercase ``\\w+`` tokens), scored
as rank-bm25's ``BM25Okapi`` scores them (the data's README names it): idf log((N - df +
0.5) / (df + 0.5)), and a word in more than half the turns gets 0.25 x the average idf
instead of a negative one (the same scores, to 1e-9, on the development split)."""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence

__all__ = ["BM25"]

_TOKEN = re.compile(r"\w+")
#: The share of the average idf a word in more than half the documents gets (rank-bm25's).
EPSILON = 0.25


def tokens(text: str) -> list[str]:
    return _TOKEN.findall(text.lower())


class BM25:
    """Scores documents against a query, the textbook way."""

    def __init__(self, documents: Sequence[str], k1: float = 1.5, b: float = 0.75) -> None:
        self.k1, self.b = k1, b
        self.terms = [Counter(tokens(d)) for d in documents]
        self.lengths = [sum(t.values()) for t in self.terms]
        self.average = sum(self.lengths) / max(1, len(self.lengths))
        frequency: Counter[str] = Counter()
        for counts in self.terms:
            frequency.update(counts.keys())
        n = len(documents)
        self.idf = {t: math.log(n - df + 0.5) - math.log(df + 0.5) for t, df in frequency.items()}
        floor = EPSILON * sum(self.idf.values()) / max(1, len(self.idf))
        self.idf = {t: floor if idf < 0 else idf for t, idf in self.idf.items()}

    def scores(self, query: str) -> list[float]:
        words = tokens(query)
        out = []
        for counts, length in zip(self.terms, self.lengths, strict=True):
            score = 0.0
            norm = self.k1 * (1 - self.b + self.b * length / self.average)
            for word in words:
                f = counts.get(word, 0)
                if f:
                    score += self.idf[word] * f * (self.k1 + 1) / (f + norm)
            out.append(score)
        return out

    def ranking(self, query: str) -> list[int]:
        """Document indexes, best first (ties: earlier first); zero scores last."""
        scores = self.scores(query)
        return sorted(range(len(scores)), key=lambda i: (-scores[i], i))

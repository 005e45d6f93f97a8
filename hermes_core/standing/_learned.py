"""How much a sentence reads like a standing instruction, learned from examples.

The cue patterns of :mod:`.detect` find what they were written for and little
else: phrasings nobody wrote a pattern for are missed, and a one-turn task
that happens to name a form ("Write a short poem") is taken for a rule. This
scorer weighs the words of a sentence (each word, each pair of neighbouring
words, the first words, whether it asks, how long it is) by weights a
logistic regression learned from rules set by users in every class of
phrasing, and from what sets no rule: one-turn tasks and questions, and a
conversation between friends (``tools/train_standing.py`` writes
``weights.json``; ``benchmarks/standing/phrasings.py`` holds the examples and
the halves kept apart to judge it on). It runs in time linear in the sentence
and needs no model: the weights are a table of words.
"""

from __future__ import annotations

import json
import math
import re
from functools import cache
from itertools import pairwise
from pathlib import Path

__all__ = ["WEIGHTS", "features", "likelihood"]

#: The learned weights, by feature.
WEIGHTS = Path(__file__).with_name("weights.json")
_WORD = re.compile(r"[a-zà-öø-ÿß]+(?:'[a-z]+)?")
#: Sentence lengths, in words, by the bucket they fall in (a bucket of four words).
_LENGTH_BUCKET, _LONGEST_BUCKET = 4, 6


def features(sentence: str) -> set[str]:
    """What the scorer weighs in ``sentence``: its words and pairs of neighbouring words
    (lower case), its first word and first two, whether it asks, and its length."""
    words = _WORD.findall(sentence.lower())
    found = {"<bias>", *words, *(f"{a} {b}" for a, b in pairwise(words))}
    if words:
        found.add("^" + words[0])
        found.add("^^" + " ".join(words[:2]))
    if sentence.rstrip().endswith("?"):
        found.add("<question>")
    found.add(f"<length {min(len(words) // _LENGTH_BUCKET, _LONGEST_BUCKET)}>")
    return found


@cache
def _weights() -> dict[str, float]:
    weights: dict[str, float] = json.loads(WEIGHTS.read_text(encoding="utf-8"))
    return weights


def likelihood(sentence: str) -> float:
    """How likely ``sentence`` states a standing instruction, from 0 to 1."""
    weights = _weights()
    z = sum(weights.get(feature, 0.0) for feature in features(sentence))
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))

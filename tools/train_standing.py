"""Train the scorer of :mod:`hermes_core.standing._learned` and write its weights.

Rules: every half of ``benchmarks/standing/phrasings.py`` tuned on (``FIRST_RULES``,
``TUNING`` to ``HELD_OUT_7``); no rules: ``ORDINARY``, ``FIRST_NOT_RULES``, ``TASKS``,
``POLITE_TASKS``, ``REPLIES`` and the sentences of two of the three development
conversations of LoCoMo (26 and 30; 49 is kept apart to measure on, with ``HELD_OUT_8``,
``HELD_OUT_9``, ``TASKS_2``, ``TASKS_3``, ``POLITE_TASKS_2`` and ``REPLIES_2``, which
nothing here reads; ``benchmarks/standing/detection.py`` reports both). A logistic regression by
stochastic gradient, rules weighted up to balance the classes, a fixed seed: the same
examples give the same file.

    python tools/train_standing.py
"""

from __future__ import annotations

import json
import math
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from recall.locomo import load  # noqa: E402
from standing import phrasings  # noqa: E402

from hermes_core.standing._detect import sentences  # noqa: E402
from hermes_core.standing._learned import WEIGHTS, features  # noqa: E402

LOCOMO = ROOT.parent / "shared" / "data" / "locomo-dev"
TRAINED_ON = ("26", "30")
HALVES = ("TUNING", "HELD_OUT", *(f"HELD_OUT_{n}" for n in range(2, 8)))
EPOCHS, RATE, DECAY, SEED = 30, 0.1, 1e-4, 7
#: Weights smaller than this are left out of the file: they change no decision.
SMALLEST = 0.05


def examples() -> list[tuple[set[str], int]]:
    rules = [
        phrasings.rule_of(text)
        for half in HALVES
        for texts in getattr(phrasings, half).values()
        for text in texts
    ] + phrasings.FIRST_RULES
    talk = [
        sentence
        for name in TRAINED_ON
        for message in load(LOCOMO / f"{name}.json").messages[1:]
        for sentence in sentences(message["content"])
    ]
    none = [
        *phrasings.ORDINARY,
        *phrasings.FIRST_NOT_RULES,
        *phrasings.TASKS,
        *phrasings.POLITE_TASKS,
        *phrasings.REPLIES,
        *talk,
    ]
    return [(features(s), 1) for s in rules] + [(features(s), 0) for s in none]


def train(data: list[tuple[set[str], int]]) -> dict[str, float]:
    rules = sum(label for _, label in data)
    up = (len(data) - rules) / rules
    weights: dict[str, float] = {}
    order = list(data)
    rng = random.Random(SEED)
    for _ in range(EPOCHS):
        rng.shuffle(order)
        for found, label in order:
            ordered = sorted(found)  # one order whatever the hash seed: the same file
            z = sum(weights.get(f, 0.0) for f in ordered)
            p = 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))
            step = (p - label) * (up if label else 1.0)
            for f in ordered:
                w = weights.get(f, 0.0)
                weights[f] = w - RATE * (step + DECAY * w)
    return {f: round(w, 4) for f, w in sorted(weights.items()) if abs(w) >= SMALLEST}


def main() -> int:
    data = examples()
    weights = train(data)
    WEIGHTS.write_text(json.dumps(weights, ensure_ascii=False, indent=0) + "\n", encoding="utf-8")
    print(f"{len(data)} examples, {len(weights)} weights written to {WEIGHTS}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Which sentences the detector takes for standing instructions, half by half.

For each half of ``phrasings.py`` that states rules: how many of its rule sentences are
found. For each set that states none: how many are wrongly carried. And on LoCoMo's
development conversations, the share of user turns wrongly carried. Every line says
whether the learned scorer trained on it (``tools/train_standing.py``) or it was kept
apart, so the two halves are read side by side.

    python benchmarks/standing/detection.py
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from recall.locomo import load

from hermes_core.standing._detect import find_directives
from standing import phrasings

LOCOMO = Path(__file__).resolve().parents[3] / "shared" / "data" / "locomo-dev"
#: What the learned scorer never trained on (the rest it did).
KEPT_APART = {
    "HELD_OUT_8", "HELD_OUT_9", "TASKS_2", "TASKS_3", "POLITE_TASKS_2", "REPLIES_2", "49"
}  # fmt: skip
RULE_HALVES = ("TUNING", "HELD_OUT", *(f"HELD_OUT_{n}" for n in range(2, 10)))
NO_RULE_SETS = (
    "ORDINARY", "FIRST_NOT_RULES", "TASKS", "TASKS_2", "TASKS_3", "POLITE_TASKS",
    "POLITE_TASKS_2", "REPLIES", "REPLIES_2",
)  # fmt: skip


def carried(text: str) -> bool:
    """Whether ``text`` (a user message) is taken to state a standing instruction."""
    return any(d.kind == "instruction" for d in find_directives(text))


def _label(name: str) -> str:
    return "kept apart" if name in KEPT_APART else "trained on"


def main() -> int:
    print("rules found (of each half's rule sentences):")
    for name in RULE_HALVES:
        texts = [phrasings.rule_of(t) for ts in getattr(phrasings, name).values() for t in ts]
        found = sum(carried(t) for t in texts)
        print(f"  {name:<15} {found:>3} of {len(texts):<3} {_label(name)}")
    print("wrongly carried (of sentences that set no rule):")
    for name in NO_RULE_SETS:
        texts = getattr(phrasings, name)
        wrong = [t for t in texts if carried(t)]
        print(f"  {name:<15} {len(wrong):>3} of {len(texts):<3} {_label(name)}  {wrong[:3]}")
    if LOCOMO.is_dir():
        print("LoCoMo user turns wrongly carried:")
        for path in sorted(LOCOMO.glob("*.json")):
            turns = [m["content"] for m in load(path).messages[1:]]
            count = sum(carried(t) for t in turns)
            share = f"{count / len(turns):.2%}"
            print(f"  {path.stem:<15} {count:>3} of {len(turns):<4} {share}  {_label(path.stem)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

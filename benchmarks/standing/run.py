"""``nox -s standing``: are the user's standing instructions in every later request?

Our own check, on the development conversations (``../shared/data/locomo-dev``):
into each conversation go 15 instructions of one set, half near the top (the first
tenth of the turns) and half in the middle, each a user message answered "Noted.".
The sets (``--set``): ``ours`` (eight set in time, eight by their form alone), and
the halves of ``phrasings.py`` by class of phrasing (form, facts about the user,
prohibitions, conditions, a rule inside a long turn, other languages): ``tuning``,
``tuned-2`` to ``tuned-7`` (held-out halves since tuned on), ``held-out`` and
``held-out-9`` (its eighth and ninth halves, never trained or tuned on), 15 each,
one per subject (two on the same subject would rightly end one another). Each
engine replays the conversation at B = 4,000, 8,000 and 16,000 tokens; then later
requests are built: ten of the conversation's own questions (unrelated to the
instructions) and six requests an instruction governs ("Draft a reply ..."). A pair
(instruction, request) scores when the instruction is verbatim in the request and
the request fits B. The instructions are not tuned on: the detector never saw them
(``tests/test_standing.py`` holds its own phrasings).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from contextlib import ExitStack
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from recall.locomo import Conversation, Question, load
from recall.protocol import ask, fits, replay

from hermes_core.standing._topics import slot
from hermes_core.testing._openai_server import fake_openai_server
from standing.phrasings import (
    HELD_OUT_2,
    HELD_OUT_3,
    HELD_OUT_4,
    HELD_OUT_5,
    HELD_OUT_6,
    HELD_OUT_7,
    HELD_OUT_8,
    HELD_OUT_9,
    TUNING,
    rule_of,
)

DEFAULT_DATA = Path(__file__).resolve().parents[3] / "shared" / "data" / "locomo-dev"

SET_IN_TIME = [
    "From now on, sign every reply with a dash and my initials, JR.",
    "For the rest of this chat, write all dates as YYYY-MM-DD.",
    "Going forward, please keep every answer under 120 words.",
    "Until I say otherwise, give temperatures in Celsius.",
    "From here on, put a one-line summary at the top of each reply.",
    "For the remainder of our conversation, don't recommend any restaurants.",
    "By default, assume I'm in the Europe/Lisbon time zone.",
    "In all your replies from now on, avoid exclamation marks.",
]
BY_FORM = [
    "Never mention my employer by name in anything you draft.",
    "Always show me a draft before you send a message on my behalf.",
    "Please reply in numbered lists rather than paragraphs.",
    "Call me Jo, not Joanna.",
    "Don't use emojis in messages you write for me.",
    "When you suggest a book, add the author's nationality.",
    "Make sure you double-check any number you quote.",
    "Use British spelling in everything you write.",
]
GOVERNED = [
    "Draft a short message I can send to my friend about the weekend.",
    "What's the weather usually like there in July?",
    "Suggest a book I might enjoy next.",
    "Write a quick reply thanking them for the photos.",
    "Summarise what we talked about today.",
    "When was the last time we discussed the trip?",
]


def of_classes(half: dict[str, list[str]], count: int = 15) -> list[str]:
    """``count`` instructions of ``half``, taken class by class in turn, one per subject."""
    chosen: list[str] = []
    used: set[str] = set()
    queues = [list(texts) for texts in half.values()]
    while len(chosen) < count and any(queues):
        for queue in queues:
            while queue and len(chosen) < count:
                text = queue.pop(0)
                subject = slot(rule_of(text))
                if subject is None or subject not in used:
                    used.add(subject or "")
                    chosen.append(text)
                    break
    return chosen


SETS = {
    "ours": SET_IN_TIME + BY_FORM,
    "tuning": of_classes(TUNING),
    "tuned-2": of_classes(HELD_OUT_2),
    "tuned-3": of_classes(HELD_OUT_3),
    "tuned-4": of_classes(HELD_OUT_4),
    "tuned-5": of_classes(HELD_OUT_5),
    "tuned-6": of_classes(HELD_OUT_6),
    "tuned-7": of_classes(HELD_OUT_7),
    "held-out": of_classes(HELD_OUT_8),
    "held-out-9": of_classes(HELD_OUT_9),
}


def with_instructions(
    conversation: Conversation, instructions: list[str]
) -> tuple[Conversation, dict[str, str]]:
    """The conversation with ``instructions`` in it, and where each went (top, middle)."""
    turns = conversation.turns
    top, middle = max(2, len(turns) // 10), len(turns) // 2
    placed: dict[int, list[str]] = {}
    where: dict[str, str] = {}
    for n, text in enumerate(instructions):
        at = top + 2 * (n % 8) if n % 2 == 0 else middle + 2 * (n % 8)
        placed.setdefault(at, []).append(text)
        where[text] = "top" if n % 2 == 0 else "middle"
    out: list[dict[str, Any]] = [conversation.messages[0]]
    for index, turn in enumerate(turns):
        for text in placed.get(index, []):
            out += [{"role": "user", "content": text}, {"role": "assistant", "content": "Noted."}]
        out.append(turn)
    return Conversation(conversation.name, out, conversation.questions), where


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--budgets", type=int, nargs="+", default=[4_000, 8_000, 16_000])
    parser.add_argument("--engines", nargs="+", default=["compressor", "lcm"])
    parser.add_argument("--set", choices=sorted(SETS), nargs="+", default=["tuning", "held-out"])
    parser.add_argument(
        "--llm",
        action="store_true",
        help="summaries by an auxiliary LLM (the project's fake server on 127.0.0.1)",
    )
    args = parser.parse_args()
    files = sorted(args.data.glob("*.json"))
    with ExitStack() as stack:
        config = None
        if args.llm:
            server = stack.enter_context(fake_openai_server())
            config = {"auxiliary": {"compression": {"base_url": server.url, "model": "aux-model"}}}
        for name in args.set:
            measure(name, SETS[name], files, args.budgets, args.engines, config)
    return 0


def measure(
    name: str,
    instructions: list[str],
    files: list[Path],
    budgets: list[int],
    engines: list[str],
    config: dict[str, Any] | None = None,
) -> None:
    """Print, per engine and budget, the share of (instruction, later request) pairs whose
    request carries the instruction verbatim within the budget."""
    conversations = [with_instructions(load(f), instructions) for f in files]
    llm = "with" if config else "without"
    print(
        f"set {name}: {len(files)} conversations, {len(instructions)} instructions each, "
        f"{llm} the auxiliary LLM"
    )
    print(f"{'engine':>11} {'B':>7} {'probe':>9} {'top':>6} {'middle':>7} {'all':>6}")
    with tempfile.TemporaryDirectory(prefix="standing-") as scratch:
        for engine in engines:
            for budget in budgets:
                tally: dict[tuple[str, str], list[int]] = {}
                for conversation, where in conversations:
                    home = Path(scratch) / f"{engine}-{budget}-{conversation.name}"
                    result = replay(conversation, engine, budget, home, config)
                    probes = [("unrelated", q) for q in conversation.questions[:10]]
                    probes += [("governed", Question(text, 0, ())) for text in GOVERNED]
                    for kind, question in probes:
                        request = ask(result, question, config)
                        ok = fits(request, budget)
                        body = "\n".join(str(m.get("content")) for m in request)
                        for text, position in where.items():
                            cell = tally.setdefault((kind, position), [0, 0])
                            cell[0] += ok and rule_of(text) in body
                            cell[1] += 1
                for kind in ("unrelated", "governed"):
                    top, mid = tally[(kind, "top")], tally[(kind, "middle")]
                    share = (top[0] + mid[0]) / (top[1] + mid[1])
                    print(
                        f"{engine:>11} {budget:>7,} {kind:>9} {top[0] / top[1]:6.3f} "
                        f"{mid[0] / mid[1]:7.3f} {share:6.3f}"
                    )


if __name__ == "__main__":
    sys.exit(main())

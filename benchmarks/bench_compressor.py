"""Compressor benchmark: one pass without an LLM on 5,000, 10,000 and 20,000 messages.

Side by side in one run, per size: the pass, and one ``json.dumps`` of the
same messages (the cost of merely serialising them once). Targets: each
doubling of the transcript costs at most 2.3x, and a pass at most 5x the
``json.dumps``. Best of several rounds, alternating, for each.
"""

from __future__ import annotations

import json
import sys
import time
from typing import Any

from hermes_compressor import CompressorEngine
from hermes_core.testing.conversations import coding_session

SIZES = (5_000, 10_000, 20_000)
ROUNDS = 5


def transcript(size: int) -> list[dict[str, Any]]:
    """The first ``size`` messages (or one more, not to end between a call and its result)
    of a long :func:`~hermes_core.testing.conversations.coding_session`."""
    messages = coding_session(turns=size // 3)
    while messages[size - 1]["role"] == "tool" or messages[size]["role"] == "tool":
        size += 1
    return messages[:size]


def best(function: Any, rounds: int = ROUNDS) -> float:
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> int:
    rows = []
    for size in SIZES:
        messages = transcript(size)
        engine = CompressorEngine({"compression": {"protect_first_n": 3, "protect_last_n": 20}})
        engine.update_model("bench-model", 200_000)
        dumps = best(lambda m=messages: json.dumps(m))
        compress = best(lambda m=messages, e=engine: e.compress(m))
        result = engine.compress(messages)
        rows.append((len(messages), dumps, compress, len(result)))
    ok = True
    header = ("messages", "json.dumps", "compress", "vs dumps", "vs half", "kept")
    print("{:>9} {:>11} {:>10} {:>9} {:>8} {:>5}".format(*header))
    previous = None
    for count, dumps, compress, kept in rows:
        ratio = compress / dumps
        growth = compress / previous if previous else None
        ok &= ratio <= 5.0 and (growth is None or growth <= 2.3)
        growth_text = f"{growth:7.2f}x" if growth else f"{'-':>8}"
        print(
            f"{count:9,} {dumps * 1e3:8.1f} ms {compress * 1e3:7.1f} ms "
            f"{ratio:8.2f}x {growth_text} {kept:5}"
        )
        previous = compress
    print(f"targets (pass <= 5x json.dumps, each doubling <= 2.3x): {'met' if ok else 'MISSED'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

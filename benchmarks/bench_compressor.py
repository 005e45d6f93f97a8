"""Compressor benchmark: one pass without an LLM on 5,000, 10,000 and 20,000 messages.

Side by side in one run, per size: the pass, and one ``json.dumps`` of the
same messages (the cost of merely serialising them once). Targets: each
doubling of the transcript costs at most 2.3x, and a pass at most 5x the
``json.dumps``. Best of several rounds, alternating, for each.
"""

from __future__ import annotations

import json
import random
import sys
import time
from typing import Any

from hermes_compressor import CompressorEngine

SIZES = (5_000, 10_000, 20_000)
ROUNDS = 5


def transcript(size: int, seed: int = 3) -> list[dict[str, Any]]:
    """A realistic agent transcript: asks, parallel tool calls, results of varied size, replies."""
    rng = random.Random(seed)
    messages: list[dict[str, Any]] = [
        {"role": "system", "content": "You are a coding agent. " * 20}
    ]
    turn = 0
    while len(messages) < size:
        turn += 1
        messages.append(
            {
                "role": "user",
                "content": f"Step {turn}: " + "please look at this. " * rng.randint(2, 30),
            }
        )
        for _ in range(rng.randint(0, 3)):
            ids = [f"call_{turn}_{k}_{len(messages)}" for k in range(rng.randint(1, 3))]
            messages.append(
                {
                    "role": "assistant",
                    "content": None,
                    "tool_calls": [
                        {
                            "id": i,
                            "type": "function",
                            "function": {
                                "name": rng.choice(
                                    ["read_file", "grep", "run_tests", "apply_patch"]
                                ),
                                "arguments": json.dumps(
                                    {
                                        "path": f"src/pkg/mod_{rng.randint(0, 300)}.py",
                                        "patch": "+ line\n" * rng.randint(0, 80),
                                    }
                                ),
                            },
                        }
                        for i in ids
                    ],
                }
            )
            for i in ids:
                body = rng.choice(
                    [
                        "ok",
                        "def f(x):\n    return x\n" * rng.randint(5, 120),
                        "Traceback (most recent call last):\n  File 'a.py'\nValueError: bad\n"
                        * rng.randint(1, 10),
                        "PASSED tests/test_a.py::test_one\n" * 40,  # repeats across calls: dedupe
                    ]
                )
                messages.append({"role": "tool", "tool_call_id": i, "content": body})
        messages.append({"role": "assistant", "content": "Done. " * rng.randint(3, 40)})
    return messages[:size] if messages[size - 1]["role"] != "tool" else messages[: size + 1]


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

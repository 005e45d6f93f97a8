"""LCM store benchmark: ingest rate, lcm_grep latency and select_context latency as the store grows.

At 10,000, 100,000 and 1,000,000 stored messages (one session, generated
agent-like text), measured in one run: ingest rate in batches of 1,000
messages, the median latency of 50 ``lcm_grep`` calls, the median latency of
``select_context`` (at 100,000), and the peak memory allocated during the
grep and select calls (tracemalloc). Targets: ingest >= 20,000 messages/s;
lcm_grep median < 20 ms at 1,000,000; peak memory independent of the store
size (largest / smallest <= 1.5).
"""

from __future__ import annotations

import argparse
import json
import random
import sqlite3
import statistics
import sys
import tempfile
import time
import tracemalloc
from typing import Any

from hermes_engine_lcm import LCMEngine

SIZES = (10_000, 100_000, 1_000_000)
BATCH = 1_000


def vocabulary(rng: random.Random, size: int = 20_000) -> list[str]:
    syllables = ["ka", "lo", "mi", "ter", "zen", "qua", "dor", "fi", "nu", "rex", "sol", "vin"]
    words = {
        "".join(rng.choice(syllables) for _ in range(rng.randint(2, 4))) for _ in range(size * 2)
    }
    return sorted(words)[:size]


def messages(rng: random.Random, words: list[str], count: int, start: int) -> list[dict[str, Any]]:
    weights = [1 / (rank + 1) for rank in range(len(words))]
    out: list[dict[str, Any]] = []
    for n in range(start, start + count):
        text = " ".join(rng.choices(words, weights=weights, k=rng.randint(15, 60)))
        role = "user" if n % 2 == 0 else "assistant"
        out.append({"role": role, "content": f"step {n}: {text}"})
    return out


def fts_ceiling(texts: list[str]) -> float:
    """Messages/s SQLite alone reaches storing and indexing the same texts, the same way."""
    with tempfile.TemporaryDirectory() as folder:
        db = sqlite3.connect(f"{folder}/ceiling.db", isolation_level=None)
        db.execute("PRAGMA journal_mode = WAL")
        db.execute("PRAGMA synchronous = NORMAL")
        db.executescript(
            "CREATE TABLE m (id INTEGER PRIMARY KEY, text TEXT);"
            "CREATE VIRTUAL TABLE f USING fts5(text, content='m', content_rowid='id');"
        )
        start = time.perf_counter()
        for first in range(0, len(texts), BATCH):
            db.execute("BEGIN IMMEDIATE")
            db.executemany(
                "INSERT INTO m (id, text) VALUES (?, ?)",
                [(first + i + 1, t) for i, t in enumerate(texts[first : first + BATCH])],
            )
            db.execute("INSERT INTO f (rowid, text) SELECT id, text FROM m WHERE id > ?", (first,))
            db.execute("COMMIT")
        seconds = time.perf_counter() - start
        db.close()
    return len(texts) / seconds


def median_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--max-size", type=int, default=SIZES[-1])
    args = parser.parse_args()
    sizes = [s for s in SIZES if s <= args.max_size]
    rng = random.Random(5)
    words = vocabulary(rng)
    queries = [" ".join(rng.sample(words[200:3_000], 2)) for _ in range(50)]
    rows = []
    with tempfile.TemporaryDirectory() as home:
        settings = {"fresh_tail_messages": 64, "max_passes": 200, "deadline_seconds": 600}
        engine = LCMEngine({"lcm": settings}, hermes_home=home)
        engine.update_model("bench", 200_000)
        engine.on_session_start("bench")
        stored = 0
        for size in sizes:
            ingest_seconds = 0.0
            while stored < size:
                batch = messages(rng, words, BATCH, stored)
                start = time.perf_counter()
                engine.on_turn_complete(batch, session_id="bench")
                ingest_seconds += time.perf_counter() - start
                stored += BATCH
                if stored % (10 * BATCH) == 0:  # the agent compacts as it goes (not timed)
                    engine.compress([], session_id="bench")
            added = size - (rows[-1][0] if rows else 0)
            tracemalloc.start()
            grep_times = []
            for query in queries:
                t = time.perf_counter()
                result = json.loads(
                    engine.handle_tool_call("lcm_grep", {"query": query}, session_id="bench")
                )
                grep_times.append(time.perf_counter() - t)
                assert "results" in result
            select_times = []
            incoming = {"role": "user", "content": queries[0]}
            recent = messages(rng, words, 0, stored)
            for _ in range(10):
                t = time.perf_counter()
                engine.select_context(
                    [incoming],
                    conversation_messages=recent,
                    incoming_message=incoming,
                    budget_tokens=200_000,
                    session_id="bench",
                )
                select_times.append(time.perf_counter() - t)
            peak = tracemalloc.get_traced_memory()[1]
            tracemalloc.stop()
            rows.append(
                (size, added / ingest_seconds, median_ms(grep_times), median_ms(select_times), peak)
            )
        engine.database.close()
    header = ("stored", "ingest msg/s", "grep median", "select median", "peak memory")
    print("{:>10} {:>13} {:>12} {:>14} {:>12}".format(*header))
    for size, rate, grep, select, peak in rows:
        print(f"{size:10,} {rate:13,.0f} {grep:9.2f} ms {select:11.2f} ms {peak / 1e6:9.2f} MB")
    peaks = [r[4] for r in rows]
    ok = all(r[1] >= 20_000 for r in rows)
    ok &= rows[-1][2] < 20.0 if rows[-1][0] >= 1_000_000 else True
    ok &= max(peaks) / min(peaks) <= 1.5
    print(f"peak memory largest/smallest store: {max(peaks) / min(peaks):.2f}x")
    sample = [m["content"] for m in messages(random.Random(9), words, 20_000, 0)]
    ceiling = fts_ceiling(sample)
    average = sum(map(len, sample)) / len(sample)
    print(
        f"messages average {average:.0f} characters; SQLite alone, indexing the same texts in the "
        f"same FTS5 table, reaches {ceiling:,.0f} msg/s (ingest/ceiling at 10,000: "
        f"{rows[0][1] / ceiling:.2f})"
    )
    verdict = "met" if ok else "MISSED"
    print(f"targets (ingest >= 20,000/s, grep median < 20 ms at 1M, flat memory): {verdict}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

"""The LCM store on SQLite and on PostgreSQL, side by side in one run.

For each backend: ingest rate (batches of 1,000 messages into one session)
and the median of 50 ``lcm_grep`` calls at 100,000 and 1,000,000 stored;
the median ``on_turn_complete`` of a turn with a 10,000-message history;
and the aggregate ingest of 8 worker processes, each appending its own
conversation a turn at a time, against one worker doing the same.
PostgreSQL runs on a throwaway server with its default durability (fsync
and synchronous commit on), started by the benchmark as for the tests.

Targets, each a ratio of this run (``judging.py``; exit 1 when one misses):
at 1,000,000 stored, PostgreSQL's ``lcm_grep`` median at most 3x SQLite's on
the same data and at most 2x its own at 100,000 (its indexes bound the work,
not the store; at 100,000 SQLite's small index answers in about a millisecond
and PostgreSQL's round trips dominate, about 11x, so no claim is made there);
8 workers' aggregate ingest on PostgreSQL >= 3x one worker's with the server
behind a 2 ms round trip (a delaying TCP proxy on 127.0.0.1,
``delay_proxy.py``), which shows that workers wait on the network, not on
each other. Undelayed, a 2-core machine
cannot show 3x: the work is CPU-bound on both sides, so there the claim is
what it can show, at least 0.6 of the CPU's ceiling (cores / the share of a
core one worker and its server process keep busy).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from hermes_engine_lcm import LCMEngine
from hermes_engine_lcm.testing import PostgresServer

sys.path.insert(0, str(Path(__file__).parent))
from bench_lcm import BATCH, messages, vocabulary
from delay_proxy import DelayProxy
from judging import Target, judge

SIZES = (100_000, 1_000_000)
TURN_HISTORY = 10_000
WORKERS = 8
WORKER_TURNS = 150
#: One way, seconds: a 2 ms round trip, a server in the same data centre.
NETWORK_DELAY = 0.001


def store_settings(backend: str, server: PostgresServer | None, folder: str) -> dict[str, Any]:
    if backend == "sqlite":
        return {"database": f"{folder}/lcm-{random.random()}.db"}
    assert server is not None
    return {"database_url": server.create_database("bench")}


def median_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000


def grow_and_search(
    store: dict[str, Any], words: list[str], sizes: list[int]
) -> list[tuple[int, float, float]]:
    """(stored, ingest msg/s since the previous size, grep median ms) at each size."""
    rng = random.Random(5)
    queries = [" ".join(rng.sample(words[200:3_000], 2)) for _ in range(50)]
    engine = LCMEngine({"lcm": store})
    engine.update_model("bench", 10_000_000)  # ingest is what is timed: no compaction
    rows: list[tuple[int, float, float]] = []
    stored = 0
    for size in sizes:
        seconds = 0.0
        start_count = stored
        while stored < size:
            batch = messages(rng, words, BATCH, stored)
            start = time.perf_counter()
            engine.on_turn_complete(batch, session_id="bench")
            seconds += time.perf_counter() - start
            stored += BATCH
        if "database_url" in store:
            # what autovacuum does within a minute of a bulk load: statistics on the new rows,
            # which the planner needs to combine the word and (session, seq) indexes
            with engine.database.write() as db:
                db.execute("ANALYZE")
        times = []
        for query in queries:
            start = time.perf_counter()
            answer = engine.handle_tool_call("lcm_grep", {"query": query}, session_id="bench")
            times.append(time.perf_counter() - start)
            assert "results" in json.loads(answer)
        rows.append((size, (stored - start_count) / seconds, median_ms(times)))
    engine.close()
    return rows


def per_turn(store: dict[str, Any], words: list[str]) -> float:
    """Median ms of on_turn_complete for one more turn of a TURN_HISTORY-message history."""
    rng = random.Random(11)
    engine = LCMEngine({"lcm": store})
    engine.update_model("bench", 10_000_000)
    history = [{"role": "system", "content": "agent"}, *messages(rng, words, TURN_HISTORY - 1, 0)]
    engine.on_turn_complete(history)
    samples = []
    for n in range(200):
        history = [*history, *messages(rng, words, 2, TURN_HISTORY + 2 * n)]
        start = time.perf_counter()
        engine.on_turn_complete(history)
        samples.append(time.perf_counter() - start)
    engine.close()
    return median_ms(samples)


def _cpu_seconds(pid: int | None) -> float:
    """CPU time of process ``pid`` (Linux), or of this process when None."""
    if pid is None:
        return time.process_time()
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _worker(store: dict[str, Any], number: int, barrier: Any, results: Any) -> None:
    rng = random.Random(number)
    words = vocabulary(random.Random(5))
    turns = [messages(rng, words, 2, 2 * n) for n in range(WORKER_TURNS)]
    engine = LCMEngine({"lcm": {**store, "pool_size": 1}})
    engine.update_model("bench", 10_000_000)
    history: list[dict[str, Any]] = [{"role": "system", "content": f"worker {number}"}]
    engine.on_turn_complete(history, session_id=f"worker-{number}")
    server = None  # the worker's one server process (its pool holds one connection)
    if "database_url" in store:
        with engine.database.read() as db:
            server = int(db.execute("SELECT pg_backend_pid()").fetchone()[0])
    barrier.wait()
    start, cpu = time.perf_counter(), _cpu_seconds(None)
    server_cpu = _cpu_seconds(server) if server else 0.0
    for turn in turns:
        history = [*history, *turn]
        engine.on_turn_complete(history, session_id=f"worker-{number}")
    cpu = _cpu_seconds(None) - cpu
    server_cpu = (_cpu_seconds(server) - server_cpu) if server else 0.0
    results.put((start, time.perf_counter(), 2 * len(turns), cpu + server_cpu))
    engine.close()


def aggregate(store: dict[str, Any], workers: int) -> tuple[float, float]:
    """Messages/s of ``workers`` processes appending turns at once (first start to last end),
    and the share of one core a worker kept busy (its own CPU and its server process's)."""
    LCMEngine({"lcm": store}).close()  # the schema exists before they start
    context = multiprocessing.get_context("spawn")
    barrier, results = context.Barrier(workers), context.Queue()
    processes = [
        context.Process(target=_worker, args=(store, n, barrier, results)) for n in range(workers)
    ]
    for process in processes:
        process.start()
    spans = [results.get(timeout=900) for _ in processes]
    for process in processes:
        process.join()
    first, last = min(s[0] for s in spans), max(s[1] for s in spans)
    busy = sum(s[3] / (s[1] - s[0]) for s in spans) / len(spans)
    return float(sum(s[2] for s in spans) / (last - first)), busy


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--max-size", type=int, default=SIZES[-1])
    parser.add_argument(
        "--write-figures", action="store_true", help="write what the docs quote (figures.py)"
    )
    args = parser.parse_args()
    sizes = [s for s in SIZES if s <= args.max_size]
    words = vocabulary(random.Random(5))
    figures: dict[str, dict[str, Any]] = {}
    with PostgresServer(durable=True) as server, tempfile.TemporaryDirectory() as folder:
        for backend in ("sqlite", "postgresql"):
            pg = server if backend == "postgresql" else None
            figures[backend] = {
                "grow": grow_and_search(store_settings(backend, pg, folder), words, sizes),
                "turn": per_turn(store_settings(backend, pg, folder), words),
                "one": aggregate(store_settings(backend, pg, folder), 1),
                "many": aggregate(store_settings(backend, pg, folder), WORKERS),
            }
        with DelayProxy(server.port, NETWORK_DELAY) as proxy:

            def delayed() -> dict[str, Any]:
                url = server.create_database("bench")
                return {"database_url": url.replace(f":{server.port}/", f":{proxy.port}/")}

            remote = {"one": aggregate(delayed(), 1), "many": aggregate(delayed(), WORKERS)}
    print(f"{'backend':>10} {'stored':>10} {'ingest msg/s':>13} {'grep median':>12}")
    for backend, found in figures.items():
        for size, rate, grep_ms in found["grow"]:
            print(f"{backend:>10} {size:10,} {rate:13,.0f} {grep_ms:9.2f} ms")
    cores = os.cpu_count() or 1
    for backend, found in figures.items():
        (one, busy), (many, _) = found["one"], found["many"]
        print(
            f"{backend}: on_turn_complete with a {TURN_HISTORY:,}-message history "
            f"{found['turn']:.2f} ms; ingest a turn at a time: 1 worker {one:,.0f} msg/s, "
            f"{WORKERS} workers {many:,.0f} msg/s together ({many / one:.2f}x)"
        )
        if backend == "postgresql":
            print(
                f"  one worker kept {busy:.2f} of a core busy (its process and its server "
                f"process): on {cores} cores {WORKERS} workers can reach {cores / busy:.2f}x "
                "at most"
            )
    (one_remote, busy_remote), (many_remote, _) = remote["one"], remote["many"]
    remote_scale = many_remote / one_remote
    print(
        f"postgresql behind a {2 * NETWORK_DELAY * 1000:.0f} ms round trip: 1 worker "
        f"{one_remote:,.0f} msg/s (keeping {busy_remote:.2f} of a core busy), {WORKERS} workers "
        f"{many_remote:,.0f} msg/s together ({remote_scale:.2f}x)"
    )
    postgres, sqlite = figures["postgresql"], figures["sqlite"]
    ceiling = cores / postgres["one"][1]
    targets = [
        Target(f"{WORKERS} workers / 1 behind a 2 ms round trip", remote_scale, 3.0, at_least=True),
        Target(
            f"{WORKERS} workers / 1 undelayed, share of the CPU's ceiling",
            postgres["many"][0] / postgres["one"][0] / ceiling,
            0.6,
            at_least=True,
        ),
    ]
    grep_ratio = postgres["grow"][-1][2] / sqlite["grow"][-1][2]
    print(f"PostgreSQL / SQLite lcm_grep median at {sizes[-1]:,}: {grep_ratio:.2f}x")
    if sizes[-1] >= 1_000_000:  # below that SQLite's index is small and PostgreSQL's round
        # trips and planning dominate: the claim is about the store that has grown
        targets.append(Target("PostgreSQL / SQLite lcm_grep median at 1,000,000", grep_ratio, 3.0))
    if len(sizes) > 1:
        targets.append(
            Target(
                f"PostgreSQL lcm_grep median, {sizes[-1]:,} / {sizes[0]:,} stored",
                postgres["grow"][-1][2] / postgres["grow"][0][2],
                2.0,
            )
        )
    shown: dict[str, str] = {}
    for backend, found in figures.items():
        for size, rate, grep_ms in found["grow"]:
            shown[f"{backend}_ingest_{size}"] = f"{rate:,.0f} msg/s"
            shown[f"{backend}_grep_{size}_ms"] = f"{grep_ms:.2f} ms"
        (one, busy), (many, _) = found["one"], found["many"]
        shown[f"{backend}_turn_ms"] = f"{found['turn']:.2f} ms"
        shown[f"{backend}_one_worker"] = f"{one:,.0f} msg/s"
        shown[f"{backend}_workers"] = f"{many:,.0f} msg/s"
        shown[f"{backend}_workers_ratio"] = f"{many / one:.2f}x"
        shown[f"{backend}_busy"] = f"{busy:.2f}"
    shown["remote_workers_ratio"] = f"{remote_scale:.2f}x"
    shown["cpu_ceiling"] = f"{ceiling:.2f}x"
    return judge(targets, source="bench_backends", figures=shown)


if __name__ == "__main__":
    sys.exit(main())

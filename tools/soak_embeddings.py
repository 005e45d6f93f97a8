"""A long run with embeddings on, in one process, on SQLite and PostgreSQL: no native fault.

What it does, round after round until ``--seconds`` have passed: each development
conversation (``../shared/data/locomo-dev``) is replayed through lcm (embeddings on) and
through the compressor, with standing instructions put into it, at B = 4,000, on a
SQLite home and on a PostgreSQL store (a server this script starts); a few of the
conversation's questions are asked of each replay (each on a fresh host, so engines and
their workers come and go, as a long held-out run makes them); every engine is closed.

Every round's texts are new (each turn ends with the round's number): the encoder
remembers texts it encoded lately, and a round of known texts would run no native code.

What it checks, and prints every round: the threads that ever ran the model's native
code (one is the promise: ``relevance/native.py``), the threads alive, and the peak RSS.
Run it under ``PYTHONFAULTHANDLER=1``: a native fault prints the stacks and exits with a
signal, which this script cannot hide. Exit 0 when every round ended and only one
thread ever ran native code.

    PYTHONFAULTHANDLER=1 python tools/soak_embeddings.py --seconds 7200
"""

from __future__ import annotations

import argparse
import resource
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from recall.locomo import load  # noqa: E402
from recall.protocol import ask, replay  # noqa: E402

DATA = ROOT.parent / "shared" / "data" / "locomo-dev"
INSTRUCTIONS = [
    "From now on, give every temperature in Celsius.",
    "Keep answers under 100 words.",
    "I'm allergic to peanuts, so please account for that in any food suggestion.",
]


def _native_threads() -> set[str]:
    """Wraps the native thread's runner to record which threads ever ran a job."""
    from hermes_engine_lcm.relevance import native

    seen: set[str] = set()
    original = native._serve

    def serve() -> None:
        seen.add(threading.current_thread().name + f"#{threading.get_ident()}")
        original()

    native._serve = serve
    return seen


def _with_instructions(conversation: Any) -> Any:
    messages = conversation.messages  # the system message, then the turns
    for n, text in enumerate(INSTRUCTIONS):
        at = 1 + (n + 1) * (len(messages) - 1) // (len(INSTRUCTIONS) + 2)
        said = [{"role": "user", "content": text}, {"role": "assistant", "content": "Noted."}]
        messages[at:at] = said
    return conversation


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=7200.0)
    parser.add_argument("--questions", type=int, default=5)
    options = parser.parse_args()
    from hermes_engine_lcm.testing import PostgresServer

    native_threads = _native_threads()
    started = time.monotonic()
    rounds = 0
    with PostgresServer() as server, tempfile.TemporaryDirectory(prefix="soak-") as scratch:
        while time.monotonic() - started < options.seconds:
            rounds += 1
            for path in sorted(DATA.glob("*.json")):
                conversation = _with_instructions(load(path))
                for message in conversation.messages[1:]:  # new texts: nothing cached
                    message["content"] += f" (round {rounds})"
                for backend in ("sqlite", "postgresql"):
                    config: dict[str, Any] = {}
                    if backend == "postgresql":
                        config = {"lcm": {"database_url": server.url(server.create_database())}}
                    for engine in ("lcm", "compressor"):
                        home = Path(scratch) / f"r{rounds}-{path.stem}-{backend}-{engine}"
                        result = replay(conversation, engine, 4_000, home, config)
                        for question in conversation.questions[: options.questions]:
                            ask(result, question, config)
            peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
            print(
                f"round {rounds} at {time.monotonic() - started:.0f} s: native threads ever "
                f"{len(native_threads)}, threads alive {threading.active_count()}, peak RSS "
                f"{peak} MB",
                flush=True,
            )
    ok = len(native_threads) <= 1
    print(f"{rounds} rounds in {time.monotonic() - started:.0f} s; {'ok' if ok else 'FAILED'}")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())

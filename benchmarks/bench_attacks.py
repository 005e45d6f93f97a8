"""What the attacks of tests/attacks cost now, measured: failing on a store that is down or
locked, redacting adversarial text, a gzip bomb, and memory after many sessions.

Each figure is printed beside what the attack cost before its fix where that can be
measured in the same run (the quadratic URL pattern, on a smaller input). Each claim is
a ratio judged against its bound (``judging.py``); the script exits 1 when one misses:
redaction stays linear (1 MiB costs at most twice 16 times 64 KiB), and so do finding
standing instructions and rare-token probes in hostile text; the old URL
pattern costs at least 10 times what ``redact`` does now; a gzip bomb at most
doubles peak RSS (inflated, it would be some 25 times); the memory held after 4,000
sessions is at most 1.5 times that after 2,000 (linear growth, the bug, doubles); a
locked session's writer fails within 1.5 times ``lcm.lock_timeout_seconds``; and
while a store is down a call takes no longer than one did while it was up (the
breaker answers without waiting for the store).
"""

from __future__ import annotations

import re
import statistics
import subprocess
import sys
import tempfile
import textwrap
import threading
import time
import tracemalloc
import zlib
from functools import partial
from pathlib import Path
from typing import Any

from judging import Target, judge, median_ratio

from hermes_core._redaction import redact
from hermes_core.testing import host_for

#: The URL pattern before the fix, for the side-by-side figure.
_OLD_URL = re.compile(r"(?i)\b([a-z][a-z0-9+.\-]*://)([^/\s@]+)@")


def _seconds(function: Any, repeat: int = 3) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def redaction() -> list[Target]:
    targets = []
    for fragment in ("a-", "sk-", "a://", "token=", "?key="):
        text = (fragment * (1_048_576 // len(fragment) + 1))[:1_048_576]
        big = _seconds(partial(redact, text))
        small = _seconds(partial(redact, text[:65_536]))
        print(f"redact 1 MiB of {fragment!r}...: {big * 1000:.0f} ms")
        # linear: 16 times the text costs about 16 times as much
        targets.append(Target(f"redact 1 MiB / 64 KiB of {fragment!r}", big / small, 32.0))
    small_text = ("a-" * 20_000)[:40_000]
    old = _seconds(lambda: _OLD_URL.sub("x", small_text), repeat=1)
    new = _seconds(lambda: redact(small_text))
    print(
        f"40 KB of 'a-': the old URL pattern alone {old * 1000:.0f} ms, redact() now "
        f"{new * 1000:.1f} ms ({old / new:.0f}x)"
    )
    targets.append(Target("the old URL pattern / redact() now", old / new, 10.0, at_least=True))
    return targets


#: Hostile text for the instruction detector and the rare-token probes: runs that made a
#: pattern scan to the end from each of their characters (issue 45, defects 8 and 9).
DETECTOR_INPUTS = {
    "never + words-and-hyphens": "never " + "a-" * 600_000,
    "blank lines": "\n" * 1_200_000,
    "slashes": "always " + "a/" * 600_000,
    "dots": "never " + "a." * 600_000,
    "rules": "From now on, always reply in French. " * 40_000,
}


def detector() -> list[Target]:
    """Finding standing instructions and rare-token probes is linear: 1 MiB of hostile text
    costs at most twice 16 times what 64 KiB does."""
    from hermes_core.hermes_agent.sessions._probes import find_probes
    from hermes_core.standing._detect import find_directives

    targets = []
    for name, text in DETECTOR_INPUTS.items():
        for label, run in (
            ("detect", find_directives),
            ("probe", lambda t: find_probes([{"role": "user", "content": t}])),
        ):

            def measure(run: Any = run, text: str = text) -> tuple[float, float]:
                return _seconds(partial(run, text[:1_048_576]), 1), _seconds(
                    partial(run, text[:65_536]), 1
                )

            ratio = median_ratio(3, measure)
            print(f"{label} 1 MiB / 64 KiB of {name}: {ratio:.1f}x")
            targets.append(Target(f"{label} 1 MiB / 64 KiB of {name}", ratio, 32.0))
    return targets


def gzip_bomb() -> list[Target]:
    from tests.servers import ChatServer

    packer = zlib.compressobj(9, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    block = bytes(1024 * 1024)
    bomb = b"".join([*(packer.compress(block) for _ in range(1024)), packer.flush()])
    reply = (200, {"Content-Type": "application/json", "Content-Encoding": "gzip"}, bomb)
    with ChatServer(reply=lambda body: reply) as server:
        script = textwrap.dedent(
            f"""
            import resource, time
            from hermes_core.llm import AuxiliaryLLMConfig, ChatClient, LLMResponseError
            before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
            client = ChatClient(AuxiliaryLLMConfig(base_url={server.url!r}, model="m"), env={{}})
            start = time.perf_counter()
            try:
                client.complete([{{"role": "user", "content": "hi"}}])
            except LLMResponseError:
                pass
            print(before, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
                  time.perf_counter() - start)
            """
        )
        out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    before, after, seconds = out.stdout.split()
    print(
        f"gzip bomb ({len(bomb) / 1e6:.1f} MB inflating to 1 GiB): peak RSS "
        f"{int(before) / 1024:.0f} MB before the call, {int(after) / 1024:.0f} MB after; "
        f"refused in {float(seconds) * 1000:.0f} ms"
    )
    # inflated, the gigabyte would be some 25 times the process; importing the client is not
    return [Target("gzip bomb: peak RSS after / before the call", int(after) / int(before), 2.0)]


def stores() -> list[Target]:
    import psycopg
    from hermes_engine_lcm import LCMEngine
    from hermes_engine_lcm.store.keys import session_key
    from hermes_engine_lcm.store.postgres.database import LOCK_SESSION
    from hermes_engine_lcm.testing import PostgresServer

    with PostgresServer(durable=True) as server, tempfile.TemporaryDirectory() as home:
        url = server.create_database()
        host = host_for(LCMEngine, "lcm", {"lcm": {"database_url": url}}, env={"HERMES_HOME": home})
        host.start_session("s")
        history = [{"role": "user", "content": "hello"}]
        host.turn_complete(history)
        with psycopg.connect(url, autocommit=True) as holder:
            holder.execute(
                "SELECT pg_advisory_lock(%s, hashtext(%s))", (LOCK_SESSION, session_key("s"))
            )
            locked = _seconds(
                lambda: host.turn_complete([*history, {"role": "user", "content": "x"}]), 1
            )
        print(
            f"a locked session: a writer fails after {locked:.2f} s (lcm.lock_timeout_seconds "
            "10; before: waited for ever, holding a pooled connection)"
        )
        healthy = []
        for n in range(10):
            history.append({"role": "user", "content": f"before {n}"})
            start = time.perf_counter()
            host.turn_complete(history)
            healthy.append(time.perf_counter() - start)
        server.crash()
        times = []
        for n in range(10):
            history.append({"role": "user", "content": f"during {n}"})
            start = time.perf_counter()
            host.turn_complete(history)
            times.append(time.perf_counter() - start)
        print(
            f"a store that is down: first call {times[0] * 1000:.0f} ms, then median "
            f"{statistics.median(times[1:]) * 1000:.1f} ms a call (before: 30 s each)"
        )
        server.restart()
        start = time.perf_counter()
        while True:
            history.append({"role": "assistant", "content": "back"})
            host.turn_complete(history)
            if host.status().get("backend") == "postgresql" and not host.status().get(
                "engine_status_error"
            ):
                break
            threading.Event().wait(0.05)
        print(
            f"after a restart: stored again within {time.perf_counter() - start:.2f} s "
            "(the breaker's next try; before: 24.9 s for the first call)"
        )
        host.close()
    return [
        Target("a locked session's writer / lcm.lock_timeout_seconds", locked / 10.0, 1.5),
        Target(
            "a store that is down: a later call / a call while it was up (medians)",
            statistics.median(times[1:]) / statistics.median(healthy),
            1.0,
        ),
    ]


def sessions() -> list[Target]:
    from hermes_engine_lcm import LCMEngine

    with tempfile.TemporaryDirectory() as home:
        host = host_for(LCMEngine, "lcm", {"lcm": {}}, env={"HERMES_HOME": home})
        host.update_model("model", 100_000)

        def one(n: int) -> None:
            history = [
                {"role": "system", "content": "agent"},
                {"role": "user", "content": f"session {n} asks about the weather " * 20},
                {"role": "assistant", "content": "sunny " * 50},
            ]
            incoming = {"role": "user", "content": "and tomorrow?"}
            host.start_session(f"s{n}")
            host.select_context(
                [*history, incoming],
                conversation_messages=history,
                incoming_message=incoming,
                budget_tokens=8_000,
            )
            host.end_session(f"s{n}", [*history, incoming])

        tracemalloc.start()
        base = tracemalloc.take_snapshot()
        sizes = {}
        for n in range(4_000):
            one(n)
            if n + 1 in (1_000, 2_000, 3_000, 4_000):
                grown = tracemalloc.take_snapshot().compare_to(base, "filename")
                sizes[n + 1] = sum(stat.size_diff for stat in grown) / 1e6
        tracemalloc.stop()
        host.close()
    print(
        "memory held after N sessions started and ended: "
        + ", ".join(f"{n:,}: {mb:.1f} MB" for n, mb in sizes.items())
        + " (before: 320 MB at 2,000)"
    )
    # bounded caches fill first; linear growth (the bug) would double from 2,000 to 4,000
    return [Target("memory held: 4,000 / 2,000 sessions", sizes[4_000] / sizes[2_000], 1.5)]


def main() -> int:
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    print("== attacks: what they cost now ==")
    return judge(
        [*redaction(), *detector(), *gzip_bomb(), *sessions(), *stores()], source="bench_attacks"
    )


if __name__ == "__main__":
    raise SystemExit(main())

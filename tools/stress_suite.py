"""Run the fast test suite under a CPU hog on every core, several times in a row.

A suite that passes only on an idle machine loses submissions on shared CI
machines. This script starts one busy loop per core (``--hogs``, default
``os.cpu_count()``), then runs the fast suite (the README's ``nox -s tests``
command, pytest with ``-m "not e2e and not browser"``) ``--runs`` times in a
row under that load, and prints each run's outcome and wall time, then one
verdict. It exits 1 when any run failed. Extra arguments go to pytest::

    python tools/stress_suite.py                  # 3 runs, hogs on every core
    python tools/stress_suite.py --runs 1 -- tests/lcm

The hogs are processes (not threads, which would share one interpreter lock)
and die with the script, whatever ends it.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FAST_SUITE = [
    *("-m", "pytest", "-n", "auto"),
    *("-m", "not e2e and not browser", "-q", "-p", "no:cacheprovider"),
]


def _hog() -> None:  # pragma: no cover - runs in a child process until killed
    """Spin one core until killed."""
    spin = 0
    while True:
        spin = (spin + 1) % 1_000_003


def _last_line(output: str) -> str:
    lines = [line for line in output.splitlines() if line.strip()]
    return lines[-1] if lines else "(no output)"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="suite runs in a row (default 3)")
    parser.add_argument(
        "--hogs", type=int, default=os.cpu_count() or 2, help="busy loops (default: one per core)"
    )
    parser.add_argument("pytest_args", nargs="*", help="more pytest arguments (after --)")
    args = parser.parse_args(argv)

    hogs = [multiprocessing.Process(target=_hog, daemon=True) for _ in range(args.hogs)]
    for hog in hogs:
        hog.start()
    print(f"{args.hogs} busy loops started (pids {', '.join(str(h.pid) for h in hogs)})")
    results: list[tuple[int, float, str]] = []
    try:
        for run in range(1, args.runs + 1):
            started = time.monotonic()
            completed = subprocess.run(
                [sys.executable, *FAST_SUITE, *args.pytest_args],
                cwd=ROOT,
                capture_output=True,
                text=True,
            )
            seconds = time.monotonic() - started
            summary = _last_line(completed.stdout)
            results.append((completed.returncode, seconds, summary))
            verdict = "passed" if completed.returncode == 0 else "FAILED"
            print(f"run {run}/{args.runs}: {verdict} in {seconds / 60:.1f} min: {summary}")
            if completed.returncode != 0:
                print(completed.stdout[-6_000:], completed.stderr[-2_000:], sep="\n")
    finally:
        for hog in hogs:
            hog.terminate()
        for hog in hogs:
            hog.join()
    failed = sum(1 for code, _, _ in results if code != 0)
    minutes = ", ".join(f"{seconds / 60:.1f}" for _, seconds, _ in results)
    print(
        f"under {args.hogs} busy loops: {len(results) - failed} of {len(results)} runs passed "
        f"(minutes per run: {minutes})"
    )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

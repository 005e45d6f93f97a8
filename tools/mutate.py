"""Plant each mutant of ``tools/mutants.py`` in turn and run the tests that must catch it.

For every hook fallback, bound and redaction rule listed there, the script
edits the one source line, runs that mutant's tests (``pytest -x``), restores
the file, and records whether the tests failed (the mutant is *killed*) or
passed (it *survived*). The report lists every mutant; the script exits 1
when a mutant survived that is not listed as left, with its reason::

    python tools/mutate.py                 # all mutants
    python tools/mutate.py -k redact       # those whose name holds "redact"
    python tools/mutate.py --list

The source is edited in place (an editable install imports it from here), and
restored whatever ends the run, Ctrl-C included. It refuses to start while a
file it would edit has uncommitted changes, so a restore can never lose work.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from mutants import MUTANTS, Mutant  # the catalogue beside this script

ROOT = Path(__file__).resolve().parents[1]


def _dirty(paths: set[str]) -> list[str]:
    changed = subprocess.run(
        ["git", "status", "--porcelain", "--", *sorted(paths)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return [line[3:] for line in changed.splitlines()]


#: A mutant whose tests run longer than this is taken as caught: its bound is gone and the
#: tests hang on what the bound stopped (an alias bomb expanding, a read that never ends).
TIMEOUT = 600


def run_mutant(mutant: Mutant) -> tuple[str, float]:
    """``("killed" | "hung" | "survived", seconds)``; the file is restored before it
    returns."""
    path = ROOT / mutant.path
    original = path.read_text(encoding="utf-8")
    found = original.count(mutant.before)
    if found != 1:
        raise SystemExit(f"{mutant.path}: {mutant.name!r}: 'before' found {found} times, not once")
    started = time.monotonic()
    try:
        path.write_text(original.replace(mutant.before, mutant.after), encoding="utf-8")
        tests = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "pytest",
                "-x",
                "-q",
                "-p",
                "no:cacheprovider",
                "-m",
                "not e2e and not browser",
                *mutant.tests,
            ],
            cwd=ROOT,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            code = tests.wait(timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            tests.kill()
            tests.wait()
            return "hung", time.monotonic() - started
    finally:
        path.write_text(original, encoding="utf-8")
    # 1: tests failed; 2-4: the mutant broke collection or pytest itself (still caught)
    verdict = "survived" if code in (0, 5) else "killed"
    return verdict, time.monotonic() - started


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-k", default="", help="only mutants whose name holds this text")
    parser.add_argument("--list", action="store_true", help="list the mutants and stop")
    args = parser.parse_args(argv)
    chosen = [m for m in MUTANTS if args.k.lower() in m.name.lower()]
    if args.list:
        for mutant in chosen:
            print(f"{mutant.path}: {mutant.name}")
        return 0
    dirty = _dirty({m.path for m in chosen})
    if dirty:
        print(f"commit or stash these first (they would be edited): {', '.join(dirty)}")
        return 2
    survivors: list[Mutant] = []
    left: list[Mutant] = []
    for number, mutant in enumerate(chosen, 1):
        verdict, seconds = run_mutant(mutant)
        note = f" (left: {mutant.left})" if verdict == "survived" and mutant.left else ""
        line = f"[{number}/{len(chosen)}] {verdict:8} {seconds:6.0f}s  {mutant.name}{note}"
        print(line, flush=True)
        if verdict == "survived":
            (left if mutant.left else survivors).append(mutant)
    killed = len(chosen) - len(left) - len(survivors)
    print(
        f"{len(chosen)} mutants: {killed} killed, {len(left)} survived with a reason, "
        f"{len(survivors)} survived unexplained"
    )
    for mutant in survivors:
        print(f"  SURVIVED: {mutant.path}: {mutant.name}  (tests: {' '.join(mutant.tests)})")
    return 1 if survivors else 0


if __name__ == "__main__":
    sys.exit(main())

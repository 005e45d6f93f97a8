"""Discovery benchmark: list the engines and activate one, against one entry_points() call.

Generates 1,000 unrelated distributions and 50 engine distributions in a
temporary site directory, then measures side by side, in one run:

* warm: in this process, alternating rounds of the baseline and of
  hermes-context's discover + activate, the median of each;
* cold: fresh interpreters, alternating, each timing only its own operation
  (the first scan of the site directory and the import of the engine).

Each ratio is the median of the per-round ratios (both sides timed in each round), and
activation must import exactly one engine module. Target: each ratio at most 1.3x; zero
non-selected engine modules imported.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from judging import Target, judge

from hermes_core import discover

UNRELATED = 1_000
ENGINES = 50
SELECTED = "engine_25"

CHILD = r"""
import json, sys, time
mode = sys.argv[1]
if mode == "baseline-stdlib":
    import importlib.metadata as md
elif mode == "baseline":
    import importlib_metadata as md
else:
    import importlib_metadata as md
    from hermes_core import activate, discover, load_config
    config = load_config({"context": {"engine": "%(selected)s"}}, env={})
start = time.perf_counter()
if mode.startswith("baseline"):
    found = md.entry_points(group="hermes.context_engines")
    count = len(found)
else:
    registry = discover(config)
    activation = activate(registry)
    count = len(registry)
elapsed = time.perf_counter() - start
engines = sorted(m for m in sys.modules if m.startswith("bench_engine_"))
print(json.dumps({"seconds": elapsed, "count": count, "engine_modules": engines}))
""".replace("%(selected)s", SELECTED)


def generate(site: Path) -> None:
    from hermes_core.testing import engine_module_source, write_distribution

    for index in range(UNRELATED):
        write_distribution(
            site,
            f"unrelated-package-{index}",
            "1.0",
            entry_points={"console_scripts": {f"tool-{index}": f"unrelated_{index}:main"}}
            if index % 2
            else None,
            requires=["requests>=2"],
            summary="Not an engine",
        )
    for index in range(ENGINES):
        name = f"engine_{index}"
        write_distribution(
            site,
            f"bench-engine-{index}",
            "1.0",
            entry_points={"hermes.context_engines": {name: f"bench_engine_{index}:Engine"}},
            requires=["hermes-context>=0.1"],
            summary=f"Benchmark engine {index}",
            files={f"bench_engine_{index}.py": engine_module_source(name)},
        )


def cold(site: Path, mode: str) -> dict[str, object]:
    env = dict(os.environ, PYTHONPATH=str(site), HERMES_HOME=str(site / "home"))
    out = subprocess.run(
        [sys.executable, "-c", CHILD, mode], env=env, capture_output=True, text=True, check=True
    ).stdout
    result: dict[str, object] = json.loads(out.strip().splitlines()[-1])
    return result


def warm(site: Path, rounds: int) -> tuple[list[float], list[float], list[float]]:
    import importlib.metadata as stdlib_metadata

    import importlib_metadata

    from hermes_core import activate, load_config

    sys.path.insert(0, str(site))
    config = load_config({"context": {"engine": SELECTED}}, env={"HERMES_HOME": str(site / "home")})
    base, base_std, ours = [], [], []
    for _ in range(rounds):
        start = time.perf_counter()
        importlib_metadata.entry_points(group="hermes.context_engines")
        base.append(time.perf_counter() - start)
        start = time.perf_counter()
        stdlib_metadata.entry_points(group="hermes.context_engines")
        base_std.append(time.perf_counter() - start)
        start = time.perf_counter()
        activate(discover(config))
        ours.append(time.perf_counter() - start)
    return base, base_std, ours


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=30, help="warm rounds")
    parser.add_argument("--cold-rounds", type=int, default=12, help="fresh interpreters per side")
    parser.add_argument(
        "--write-figures", action="store_true", help="write what the docs quote (figures.py)"
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        site = Path(tmp) / "site"
        generate(site)
        print(f"site: {UNRELATED} unrelated distributions, {ENGINES} engines; selected {SELECTED}")

        samples: dict[str, list[float]] = {"baseline": [], "baseline-stdlib": [], "hermes": []}
        imported: list[object] = []
        for _ in range(args.cold_rounds):
            for mode in samples:
                result = cold(site, mode)
                samples[mode].append(float(result["seconds"]))  # type: ignore[arg-type]
                if mode == "hermes":
                    imported = list(result["engine_modules"])  # type: ignore[call-overload]
        base, base_std, ours = warm(site, args.rounds)

    def per_round(ours: list[float], base: list[float]) -> float:
        return statistics.median(o / b for o, b in zip(ours, base, strict=True))

    cold_rounds = (samples["baseline"], samples["baseline-stdlib"], samples["hermes"])
    print("baseline A: importlib.metadata.entry_points(group=...)   (standard library)")
    print("baseline B: importlib_metadata.entry_points(group=...)   (the backport we use)")
    print("hermes:     discover(config) + activate(registry)")
    print(f"{'':5} {'A':>10} {'B':>10} {'hermes':>10}  (medians)")
    targets = []
    for label, (b, a, o) in (("cold", cold_rounds), ("warm", (base, base_std, ours))):
        print(
            f"{label:5} {statistics.median(a) * 1e3:7.2f} ms {statistics.median(b) * 1e3:7.2f} ms "
            f"{statistics.median(o) * 1e3:7.2f} ms"
        )
        targets.append(Target(f"{label}: hermes / A, per round", per_round(o, a), 1.3))
        targets.append(Target(f"{label}: hermes / B, per round", per_round(o, b), 1.3))
    others = [m for m in imported if m != f"bench_engine_{SELECTED.split('_')[1]}"]
    print(f"engine modules imported by activation: {imported}")
    targets.append(Target("engine modules imported by activation", len(imported), 1))
    targets.append(Target("non-selected engine modules imported", len(others), 0))
    return judge(targets, source="bench_discovery")


if __name__ == "__main__":
    sys.exit(main())

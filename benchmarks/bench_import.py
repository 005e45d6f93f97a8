"""What ``import hermes_core`` costs an embedder: time, side by side with a bare interpreter
and with what the library used to load (structlog, and through it rich), and which heavy
packages it loads. Targets: neither rich nor click nor plotille is imported; what
``import hermes_core`` adds to a bare interpreter is at most 0.75x what it added with
structlog and rich (measured 0.42x and 0.60x).

And what the pytest plugin costs every pytest run where hermes-context is installed: its
import once pytest is loaded (as pytest loads it), against importing what the plugin
loaded before (``hermes_core.testing``). Target: at most 0.1x that (measured 0.01x; it
was an absolute 20 ms, which says nothing on another machine). The script exits 1 when
a target misses (``judging.py``)."""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import time

from judging import Target, judge, median_ratio

HEAVY = ("rich", "click", "plotille", "structlog", "httpx", "matplotlib")
PROBE = (
    "import sys, json; import hermes_core; "
    f"print(json.dumps([m for m in {HEAVY!r} if m in sys.modules]))"
)


def seconds(code: str, runs: int = 15) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", code], check=True, capture_output=True)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


#: Prints, in ms, what importing ``module`` costs once pytest is imported.
PLUGIN_PROBE = (
    "import time, pytest; start = time.perf_counter(); import {module}; "
    "print((time.perf_counter() - start) * 1000)"
)


def plugin_ms(module: str, runs: int = 15) -> float:
    """Median ms to import ``module`` in a fresh interpreter that has imported pytest."""
    times = [
        float(
            subprocess.run(
                [sys.executable, "-c", PLUGIN_PROBE.format(module=module)],
                check=True,
                capture_output=True,
                text=True,
            ).stdout
        )
        for _ in range(runs)
    ]
    return statistics.median(times)


def main() -> int:
    samples: dict[str, list[float]] = {"bare": [], "ours": [], "before": []}

    def trial() -> tuple[float, float]:
        """One run of each, back to back: what import hermes_core adds to an interpreter,
        against what it added with structlog and rich as the library loaded them before."""
        bare = seconds("pass", runs=1)
        ours = seconds("import hermes_core", runs=1)
        before = seconds(
            "import structlog, structlog.dev, structlog.stdlib; import hermes_core", runs=1
        )
        for key, value in (("bare", bare), ("ours", ours), ("before", before)):
            samples[key].append(value)
        return ours - bare, before - bare

    ratio = median_ratio(15, trial)
    bare, ours, before = (statistics.median(samples[k]) for k in ("bare", "ours", "before"))
    loaded = json.loads(
        subprocess.run(
            [sys.executable, "-c", PROBE], check=True, capture_output=True, text=True
        ).stdout
    )
    print("== import hermes_core ==")
    print(
        f"bare interpreter {bare * 1000:.0f} ms; import hermes_core {ours * 1000:.0f} ms "
        f"(+{(ours - bare) * 1000:.0f} ms); with structlog and rich as the library loaded them "
        f"before: {before * 1000:.0f} ms (+{(before - bare) * 1000:.0f} ms)"
    )
    heavy = [name for name in loaded if name in ("rich", "click", "plotille")]
    print(f"heavy packages loaded: {loaded or 'none'}")
    plugin = plugin_ms("hermes_context_pytest")
    old_plugin = plugin_ms("hermes_core.testing")
    print(
        f"pytest plugin import, pytest loaded: {plugin:.1f} ms (before, as hermes_core.testing."
        f"plugin: {old_plugin:.1f} ms)"
    )
    return judge(
        [
            Target("rich, click or plotille loaded by import hermes_core", len(heavy), 0),
            Target(
                "import hermes_core's cost / with structlog and rich as before",
                ratio,
                0.75,
            ),
            Target("the pytest plugin's import / what it loaded before", plugin / old_plugin, 0.1),
        ],
        source="bench_import",
    )


if __name__ == "__main__":
    sys.exit(main())

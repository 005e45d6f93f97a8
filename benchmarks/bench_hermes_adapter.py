"""The cost of running our engines inside Hermes Agent, through the adapter, side by side.

For the compressor and lcm: ``should_compress`` and ``compress`` called the way
Hermes Agent calls them on the adapter (adapter -> ContextHost -> engine)
against the same call on an engine of the same kind called directly, in one
run: the median of 7 trials, each timing both back to back (``judging.py``).
Hermes Agent itself is not installed here:
the adapter's base class is the stand-in for Hermes 0.19's
(:mod:`hermes_core.sources.hermes.shims`), which adds nothing to a call; the
code on the call path is the code that runs inside Hermes. ``compress`` goes
over a 301-message conversation in steady state (already stored, nothing left
to fold), so what is measured is the per-call work, not a summary.

Targets: the adapter adds at most 2x to ``should_compress`` plus 5 us (the
host's guard and the attribute hops), and at most 1.5x to ``compress``.
"""

from __future__ import annotations

import copy
import sys
import tempfile
import timeit
from pathlib import Path
from typing import Any

from judging import Target, judge, median_ratio

from hermes_core import discover
from hermes_core.config import load_config
from hermes_core.hermes_agent.adapter import adapter_class
from hermes_core.sources.hermes import shims
from hermes_core.testing.conversations import sample_conversation

TRIALS = 7


def pair(name: str, home: Path) -> tuple[Any, Any]:
    """(adapter as Hermes holds it, the same kind of engine made directly)."""
    (home / "adapter").mkdir(parents=True)
    (home / "direct").mkdir(parents=True)
    env = {"HERMES_HOME": str(home / "adapter")}
    registry = discover(load_config({"context": {"engine": name}}, env=env))
    # what hermes_engine() builds (it leaves "compressor" to Hermes' own, so build it here)
    adapter = copy.deepcopy(adapter_class()(registry, env))
    config = load_config({"context": {"engine": name}}, env={"HERMES_HOME": str(home / "direct")})
    direct = discover(config).create_engine(name)
    for engine in (adapter, direct):
        engine.update_model("bench-model", 128_000)
        engine.on_session_start("bench")
    return adapter, direct


def per_call(statement: Any, number: int) -> float:
    return timeit.timeit(statement, number=number) / number


def main() -> int:
    shims.install()
    conversation = sample_conversation(75)
    targets = []
    for name in ("compressor", "lcm"):
        with tempfile.TemporaryDirectory() as scratch:
            adapter, direct = pair(name, Path(scratch))
            adapter.compress(list(conversation))  # steady state: stored, folded
            direct.compress(copy.deepcopy(conversation))

            # should_compress: the adapter's time less 5 us (the host's guard and the
            # attribute hops) against the direct call's
            def should_trial(a: Any = adapter, d: Any = direct) -> tuple[float, float]:
                return (
                    per_call(lambda: a.should_compress(1_000), 100_000) - 5e-6,
                    per_call(lambda: d.should_compress(1_000), 100_000),
                )

            def compress_trial(a: Any = adapter, d: Any = direct) -> tuple[float, float]:
                return (
                    per_call(lambda: a.compress(list(conversation)), 20),
                    per_call(lambda: d.compress(copy.deepcopy(conversation)), 20),
                )

            should = median_ratio(TRIALS, should_trial)
            compress = median_ratio(TRIALS, compress_trial)
            targets.append(Target(f"{name} should_compress: (adapter - 5us) / direct", should, 2))
            targets.append(Target(f"{name} compress (301): adapter / direct", compress, 1.5))
            adapter.host.close()
            direct.close()
    return judge(targets, source="bench_hermes_adapter")


if __name__ == "__main__":
    sys.exit(main())

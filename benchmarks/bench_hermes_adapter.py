"""The cost of running our engines inside Hermes Agent, through the adapter, side by side.

For the compressor and lcm: ``should_compress`` and ``compress`` called the way
Hermes Agent calls them on the adapter (adapter -> ContextHost -> engine)
against the same call on an engine of the same kind called directly, in one
run, best of alternating rounds. Hermes Agent itself is not installed here:
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

from hermes_core import discover
from hermes_core.config import load_config
from hermes_core.hermes_agent.adapter import adapter_class
from hermes_core.sources.hermes import shims
from hermes_core.testing.conversations import sample_conversation

ROUNDS = 7


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


def best(statement: Any, number: int) -> float:
    return min(timeit.repeat(statement, number=number, repeat=ROUNDS)) / number


def main() -> int:
    shims.install()
    conversation = sample_conversation(75)
    ok = True
    print(f"{'engine':11} {'call':16} {'direct':>10} {'adapter':>10} {'ratio':>6}  target")
    for name in ("compressor", "lcm"):
        with tempfile.TemporaryDirectory() as scratch:
            adapter, direct = pair(name, Path(scratch))
            adapter.compress(list(conversation))  # steady state: stored, folded
            direct.compress(copy.deepcopy(conversation))
            rows = []
            for _ in range(2):  # alternate, keep the best of each
                rows.append(
                    (
                        best(lambda d=direct: d.should_compress(1_000), 100_000),
                        best(lambda a=adapter: a.should_compress(1_000), 100_000),
                        best(lambda d=direct: d.compress(copy.deepcopy(conversation)), 20),
                        best(lambda a=adapter: a.compress(list(conversation)), 20),
                    )
                )
            sd, sa, cd, ca = (min(column) for column in zip(*rows, strict=True))
            should_ok = sa <= 2 * sd + 5e-6
            compress_ok = ca <= 1.5 * cd
            ok &= should_ok and compress_ok
            print(
                f"{name:11} {'should_compress':16} {sd * 1e6:7.2f} us {sa * 1e6:7.2f} us "
                f"{sa / sd:5.2f}x  2x + 5 us {'' if should_ok else 'MISSED'}"
            )
            print(
                f"{name:11} {'compress (301)':16} {cd * 1e3:7.2f} ms {ca * 1e3:7.2f} ms "
                f"{ca / cd:5.2f}x  1.5x {'' if compress_ok else 'MISSED'}"
            )
            adapter.host.close()
            direct.close()
    print(f"targets: {'met' if ok else 'MISSED'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

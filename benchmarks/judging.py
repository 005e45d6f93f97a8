"""How a benchmark judges: a ratio measured side by side in one run, its bound, and
whether it held.

Every benchmark prints each target's ratio beside its bound and exits 1 when one
misses (``nox -s bench`` then lists it). A ratio is the median of the ratios of
repeated trials, each trial measuring both sides back to back, so a machine that
is busy during one trial moves that trial, not the verdict.
"""

from __future__ import annotations

import re
import statistics
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from figures import record

__all__ = ["Target", "judge", "median_ratio", "slug"]


@dataclass(frozen=True)
class Target:
    """One claim a benchmark makes: ``ratio`` must be at most ``bound`` (or, with
    ``at_least``, at least ``bound``)."""

    name: str
    ratio: float
    bound: float
    at_least: bool = False

    @property
    def held(self) -> bool:
        return self.ratio >= self.bound if self.at_least else self.ratio <= self.bound


def median_ratio(trials: int, measure: Callable[[], tuple[float, float]]) -> float:
    """The median over ``trials`` of ``a / b``, where ``measure()`` times both sides of one
    trial back to back and returns ``(a, b)``."""
    ratios = []
    for _ in range(trials):
        numerator, denominator = measure()
        ratios.append(numerator / denominator if denominator > 0 else float("inf"))
    return statistics.median(ratios)


def slug(name: str) -> str:
    """The key a target's ratio is recorded under: its name, lower case, words joined by
    ``_`` (``"lcm, Hermes 0.22's calls"`` -> ``lcm_hermes_0_22_s_calls``)."""
    return re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_")


def judge(
    targets: Iterable[Target],
    source: str | None = None,
    figures: Mapping[str, str] | None = None,
) -> int:
    """Print each target beside its bound; 0 when all held, else 1 (the exit status).

    With ``source`` (the benchmark's file name without ``.py``), a run asked to
    write figures (:func:`figures.wanted`) records each ratio, as ``1.23x`` under
    :func:`slug` of its name, and ``figures``, in ``docs/figures/<source>.json``.
    """
    targets = list(targets)
    if source is not None:
        measured = {slug(t.name): f"{t.ratio:.2f}x" for t in targets}
        record(source, f"nox -s bench (benchmarks/{source}.py)", {**measured, **(figures or {})})
    held = True
    for target in targets:
        sign = ">=" if target.at_least else "<="
        verdict = "held" if target.held else "MISSED"
        print(f"  {target.name}: {target.ratio:.2f}x (target {sign} {target.bound:g}x) {verdict}")
        held &= target.held
    print(f"targets: {'met' if held else 'MISSED'}")
    return 0 if held else 1

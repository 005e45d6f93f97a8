"""Figures measured by a run, read from the data file the run wrote.

A page quotes a figure as ``<!-- figure: bench_lcm.ingest_10000 -->`` ...
``<!-- /figure -->`` (written by ``generated.py``): the text that
``docs/figures/bench_lcm.json`` holds under that key. A value of several lines
(a table) goes in as it is. A key or file that does not exist fails: a page
cannot quote a figure no run wrote. The benchmarks write the files
(``benchmarks/figures.py``); ``tests/test_docs_figures.py`` checks that no page
types a measured figure by hand.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

FIGURES = Path(__file__).resolve().parents[1] / "figures"


class FigureError(Exception):
    """A page quotes a figure that no data file holds."""


def load(source: str, page: str) -> dict[str, Any]:
    path = FIGURES / f"{source}.json"
    try:
        data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise FigureError(
            f"{page} quotes figures of {source!r}, but docs/figures/{source}.json does not "
            f"exist: run benchmarks/{source}.py with --write-figures"
        ) from None
    return data


def provenance(data: dict[str, Any]) -> str:
    return f"measured {data['measured']} on {data['machine']}, by {data['command']}"


def value(source: str, key: str, page: str) -> str:
    """The text ``docs/figures/<source>.json`` holds under ``key``; a key it does not hold
    fails, naming the page and the keys it holds."""
    data = load(source, page)
    if key not in data["figures"]:
        raise FigureError(
            f"{page} quotes {source}.{key}, which docs/figures/{source}.json does not "
            f"hold (it holds: {', '.join(sorted(data['figures']))})"
        )
    return str(data["figures"][key])


def measured(source: str, page: str) -> str:
    """The sentence saying when, on what and by what command ``source``'s figures were
    measured."""
    data = load(source, page)
    return f"Measured {data['measured']} on {data['machine']}, by `{data['command']}`."

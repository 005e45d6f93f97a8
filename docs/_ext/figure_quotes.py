"""mkdocs hook: figures measured by a run, quoted from the data file the run wrote.

A page writes ``{{ figure("bench_lcm.ingest_10000") }}`` where it quotes a
measured figure: the hook puts in the text that ``docs/figures/bench_lcm.json``
holds under that key, marked with the date, machine and command it was
measured with (shown on hover), and ``{{ measured("bench_lcm") }}`` writes
that date, machine and command out as a sentence. A value of several lines (a
table) goes in as it is. A key or file that does not exist fails the build: a
page cannot quote a figure no run wrote. The benchmarks write the files
(``benchmarks/figures.py``); ``tests/test_docs_figures.py`` checks that no
page types a measured figure by hand.
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path
from typing import Any

FIGURES = Path(__file__).resolve().parents[1] / "figures"
FIGURE = re.compile(r'\{\{\s*figure\("([a-z0-9_]+)\.([a-z0-9_]+)"\)\s*\}\}')
MEASURED = re.compile(r'\{\{\s*measured\("([a-z0-9_]+)"\)\s*\}\}')


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


def render(markdown: str, page: str) -> str:
    def figure(match: re.Match[str]) -> str:
        source, key = match.groups()
        data = load(source, page)
        if key not in data["figures"]:
            raise FigureError(
                f"{page} quotes {source}.{key}, which docs/figures/{source}.json does not "
                f"hold (it holds: {', '.join(sorted(data['figures']))})"
            )
        value = str(data["figures"][key])
        if "\n" in value:  # a table: as it is (the page says when it was measured)
            return value
        title = html.escape(provenance(data), quote=True)
        return f'<span class="figure" title="{title}">{value}</span>'

    def measured(match: re.Match[str]) -> str:
        data = load(match.group(1), page)
        return f"Measured {data['measured']} on {data['machine']}, by `{data['command']}`."

    return MEASURED.sub(measured, FIGURE.sub(figure, markdown))


def on_page_markdown(markdown: str, page: Any, **kwargs: Any) -> str:
    from mkdocs.exceptions import PluginError  # the build's own error: one line, no trace

    try:
        return render(markdown, page.file.src_path)
    except FigureError as exc:
        raise PluginError(str(exc)) from None

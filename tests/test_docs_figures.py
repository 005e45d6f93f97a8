"""Figures in the docs come from runs: a page quotes a measured figure only through a data
file a benchmark wrote (``docs/figures/``, written into the page by
``docs/_ext/generated.py``), each data file says when, on what machine and by what command
it was measured, and the raw Markdown a reader meets on GitHub shows no placeholder."""

from __future__ import annotations

import datetime
import importlib.util
import json
import re
import sys
from pathlib import Path
from types import ModuleType

import pytest

DOCS = Path(__file__).resolve().parents[1] / "docs"
PAGES = sorted(p for p in DOCS.rglob("*.md") if "_ext" not in p.parts)

#: A measured figure, as a page would type it: a ratio, a time, a rate, a size, a share, or
#: a score with three decimals.
MEASURED = re.compile(
    r"(?<![\w.])\d[\d,]*(?:\.\d+)?(?:-\d[\d,]*(?:\.\d+)?)?"
    r"(?:x\b|\s?(?:ms|µs|us|msg/s|turns/s|MB|MiB|GB|GiB)\b|%)"
    r"|(?<![\w.])0\.\d{3}\b"
)
#: Words that make a number a bound or a target, stated rather than measured.
BOUND = re.compile(
    r"(?:at\s+most|at\s+least|target|under|over|more\s+than|less\s+than|within|up\s+to"
    r"|<=|>=|<|>|≤|≥)[^.;:|]{0,12}$",
    re.IGNORECASE,
)
#: Numbers that look measured but are rules of the code or of a benchmark, each with why.
RULES = {
    ("compressor.md", "60%"): "the share of the summary the prompt asks for a focus topic",
    ("hermes-agent.md", "85%"): "Hermes' threshold rule, restated",
    ("lcm-postgresql.md", "2 ms"): "the round trip bench_backends puts in front of the server",
}


def _generated() -> ModuleType:
    """The writer of the pages' generated parts (also the docs build's hook)."""
    if "docs_generated" in sys.modules:
        return sys.modules["docs_generated"]
    spec = importlib.util.spec_from_file_location("docs_generated", DOCS / "_ext" / "generated.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["docs_generated"] = module
    spec.loader.exec_module(module)
    return module


def _prose(text: str) -> str:
    """The page without code blocks, inline code, generated parts and HTML comments."""
    text = _generated().PART.sub("FIGURE", text)
    text = re.sub(r"^(```|~~~).*?^\1", "", text, flags=re.MULTILINE | re.DOTALL)
    text = re.sub(r"<!--.*?-->", "", text, flags=re.DOTALL)
    text = re.sub(r"`[^`\n]*`", "", text)
    return re.sub(r"\{\{.*?\}\}", "FIGURE", text)


def typed_figures(text: str) -> list[str]:
    """The measured figures ``text`` types by hand (bounds and targets are not measured)."""
    prose = _prose(text)
    return [m.group(0) for m in MEASURED.finditer(prose) if not BOUND.search(prose[: m.start()])]


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(DOCS)))
def test_no_page_types_a_measured_figure_by_hand(page: Path) -> None:
    name = str(page.relative_to(DOCS))
    typed = [t for t in typed_figures(page.read_text(encoding="utf-8")) if (name, t) not in RULES]
    assert not typed, (
        f"{page.relative_to(DOCS)} types measured figures by hand: {typed}. Quote them with "
        "<!-- figure: <benchmark>.<key> --><!-- /figure --> from a data file the benchmark "
        "writes (benchmarks/figures.py), or state a bound ('at most 2x')."
    )


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(DOCS)))
def test_a_reader_of_the_raw_page_meets_no_placeholder_and_no_stale_figure(page: Path) -> None:
    # what GitHub shows is the file itself: every generated part is written into it, and
    # each part's text is what its source gives today
    name = page.relative_to(DOCS).as_posix()
    assert _generated().problems(page.read_text(encoding="utf-8"), name) == [], (
        "run `python docs/_ext/generated.py`"
    )


def test_the_check_finds_each_thing_a_reader_would_meet_raw() -> None:
    generated = _generated()
    source = "recall"
    fresh = generated.fill(f"<!-- figure: {source}.questions --><!-- /figure -->", "p.md")
    assert generated.problems(fresh, "p.md") == []
    assert fresh != f"<!-- figure: {source}.questions --><!-- /figure -->"
    stale = fresh.replace("-->", "-->9", 1)
    assert generated.problems(stale, "p.md") == [
        f"p.md: <!-- figure: {source}.questions --> is out of date"
    ]
    (raw,) = generated.problems('costs {{ figure("bench_lcm.x") }} a turn', "p.md")
    assert "placeholder shown raw" in raw
    (lone,) = generated.problems("<!-- config-rules: hermes_core.config._schema:KEYS -->", "p.md")
    assert "has no closing" in lone
    table = generated.fill("<!-- engine-hooks --><!-- /engine-hooks -->", "p.md")
    assert "\n\n| hook |" in table and table.endswith("|\n\n<!-- /engine-hooks -->")


def test_the_site_shows_a_figure_with_where_it_was_measured() -> None:
    generated = _generated()
    page = generated.fill("<!-- figure: recall.questions --><!-- /figure -->", "p.md")
    shown = generated.for_the_site(page)
    assert shown.startswith('<span class="figure" title="measured ') and "nox -s recall" in shown


def test_a_figure_no_data_file_holds_fails_the_build() -> None:
    generated = _generated()
    with pytest.raises(generated.figure_quotes.FigureError, match="does not exist"):
        generated.fill("<!-- figure: bench_nothing.ratio --><!-- /figure -->", "page.md")
    source = next(DOCS.joinpath("figures").glob("*.json")).stem
    with pytest.raises(generated.figure_quotes.FigureError, match="does not hold"):
        generated.fill(f"<!-- figure: {source}.no_such_key --><!-- /figure -->", "page.md")


def test_every_image_a_page_shows_is_in_the_docs_folder() -> None:
    # a picture the build draws is kept in the folder too, for readers outside the site
    for page in PAGES:
        for target in re.findall(r"!\[[^\]]*\]\(([^)\s]+)\)", page.read_text(encoding="utf-8")):
            if "://" not in target:
                assert (page.parent / target).is_file(), f"{page.name} shows {target}, not in docs/"


@pytest.mark.parametrize("path", sorted(DOCS.joinpath("figures").glob("*.json")), ids=str)
def test_each_data_file_says_when_on_what_and_by_what_it_was_measured(path: Path) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    datetime.date.fromisoformat(data["measured"])
    assert "cores" in data["machine"] and "Python" in data["machine"]
    assert data["command"].startswith("nox -s ")
    assert data["figures"] and all(isinstance(v, str) for v in data["figures"].values())


@pytest.mark.parametrize(
    ("text", "typed"),
    [
        ("select costs 18.6 ms at 100,000 stored", ["18.6 ms"]),
        ("the adapter costs 1.17x the direct call", ["1.17x"]),
        ("ingest 15,505 msg/s", ["15,505 msg/s"]),
        ("recall 0.809 at 4,000", ["0.809"]),
        ("85% of it copying", ["85%"]),
        ("a target of at most 1.3x", []),
        ("the cooldown is 60 s", []),
        ("costs <!-- figure: bench_lcm.x -->1.5x<!-- /figure --> a turn", []),
        ("```\nfigures in code 1.5x\n```", []),
    ],
)
def test_the_check_finds_typed_figures_and_only_those(text: str, typed: list[str]) -> None:
    assert typed_figures(text) == typed

"""An engine's description in listings is its own docstring, read from its source without
importing it; its distribution's summary when it has none."""

from __future__ import annotations

import sys

from hermes_core import discover, load_config
from hermes_core.sources._docstrings import docstring_summary
from hermes_core.testing import TemporarySite

PACKAGE = {
    "gust/__init__.py": '"""The gust package."""\nfrom .engine import GustEngine\n',
    "gust/engine.py": (
        "raise RuntimeError('importing this module is a bug')\n"
        "class GustEngine:\n"
        '    """Folds gusts of turns\n    into one summary.\n\n    Details nobody lists."""\n'
    ),
    "plain/__init__.py": "class Plain:\n    pass\n",
    "broken/__init__.py": "class Broken(:\n",
}


def _site(hermes_site: TemporarySite) -> None:
    hermes_site.add(
        "gust-engines",
        entry_points={
            "hermes.context_engines": {
                "gust": "gust:GustEngine",
                "plain": "plain:Plain",
                "broken": "broken:Broken",
            }
        },
        summary="Three engines in one distribution",
        files=PACKAGE,
    )


def test_the_description_follows_a_re_export_and_takes_the_first_paragraph(
    hermes_site: TemporarySite,
) -> None:
    _site(hermes_site)
    assert docstring_summary("gust:GustEngine") == "Folds gusts of turns into one summary."
    assert docstring_summary("gust.engine:GustEngine") == "Folds gusts of turns into one summary."
    assert docstring_summary("gust:Missing") == "The gust package."
    assert docstring_summary("no_such_module:X") is None
    assert not any(name.split(".")[0] == "gust" for name in sys.modules)


def test_listing_reads_descriptions_without_importing_and_falls_back_to_the_summary(
    hermes_site: TemporarySite,
) -> None:
    _site(hermes_site)
    registry = discover(load_config({}, env={}))
    summaries = {name: registry.get(name).summary() for name in ("gust", "plain", "broken")}  # type: ignore[union-attr]
    assert summaries == {
        "gust": "Folds gusts of turns into one summary.",
        "plain": "Three engines in one distribution",
        "broken": "Three engines in one distribution",
    }
    assert registry.get("gust").as_dict()["description"] == summaries["gust"]  # type: ignore[union-attr]
    assert not any(name.split(".")[0] in ("gust", "plain", "broken") for name in sys.modules)

"""The hermes-context pytest plugin (entry point ``pytest11``), for engine authors.

* ``--hermes-engine NAME`` runs the ContextEngine contract against the
  installed engine NAME, as activated by the registry.
* The ``hermes_site`` fixture gives a throwaway ``site-packages`` on
  ``sys.path`` to install fake distributions into (see
  :class:`~hermes_core.testing.TemporarySite`).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from hermes_core.testing.site import TemporarySite

_NAMED_ENGINE_TESTS = Path(__file__).with_name("named_engine.py")


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("hermes", "hermes-context context engines")
    group.addoption(
        "--hermes-engine",
        metavar="NAME",
        default=None,
        help="run the ContextEngine contract suite against the installed engine NAME",
    )


def pytest_configure(config: pytest.Config) -> None:
    if config.getoption("hermes_engine"):
        config.args.append(str(_NAMED_ENGINE_TESTS))


@pytest.fixture
def hermes_site(tmp_path: Path) -> Iterator[TemporarySite]:
    """A temporary ``site-packages`` on ``sys.path``; removed, with its modules, afterwards."""
    site = TemporarySite(tmp_path / "site-packages")
    try:
        yield site
    finally:
        site.close()

"""The hermes-context pytest plugin (entry point ``pytest11``, named ``hermes_core``).

* ``--hermes-engine NAME`` runs the ContextEngine contract against the
  installed engine NAME, as activated by the registry.
* The ``hermes_site`` fixture gives a throwaway ``site-packages`` on
  ``sys.path`` to install fake distributions into (see
  :class:`~hermes_core.testing.TemporarySite`).

pytest imports every installed plugin at start-up, in every environment
hermes-context is installed in, whether or not the tests there are about
engines. So this module lives outside ``hermes_core`` (importing any module of
a package imports the package first) and imports ``hermes_core`` only when an
option or fixture of its own is used: its import costs a few milliseconds
(``nox -s bench``, ``bench_import.py``), not the whole host's.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from hermes_core.testing._site import TemporarySite

__all__ = ["hermes_site", "pytest_addoption", "pytest_configure"]


def _named_engine_tests() -> Path:
    """The contract suite run by ``--hermes-engine``, found without importing hermes_core."""
    spec = importlib.util.find_spec("hermes_core")
    assert spec is not None and spec.origin is not None, "hermes_core is not installed"
    return Path(spec.origin).parent / "testing" / "named_engine.py"


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
        config.args.append(str(_named_engine_tests()))


@pytest.fixture
def hermes_site(tmp_path: Path) -> Iterator[TemporarySite]:
    """A temporary ``site-packages`` on ``sys.path``; removed, with its modules, afterwards."""
    from hermes_core.testing._site import TemporarySite

    site = TemporarySite(tmp_path / "site-packages")
    try:
        yield site
    finally:
        site.close()

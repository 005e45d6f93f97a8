"""Fixtures every test may take.

LCM engines for the tests run on both backends: every test that takes
``make_lcm`` (or ``lcm_backend``) runs twice, on a SQLite file under tmp_path
and on a new database of a PostgreSQL server the session starts
(``hermes_engine_lcm.testing.PostgresServer``, as an unprivileged user under
root). Tests of SQLite itself are marked ``sqlite_only``.
"""

from __future__ import annotations

import os
import time
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:  # the e2e session runs without hermes-engine-lcm installed
    from hermes_engine_lcm import LCMEngine
    from hermes_engine_lcm.testing import PostgresServer

from hermes_core import ContextHost
from hermes_core.testing import EventCapture, capture_events, host_for
from tests.postgres import POSTGRES_SKIPPED, started_postgres

pytest_plugins = ["pytester"]

#: LCM ranks by keywords in the tests (and the commands they run) unless a test names a model:
#: ``auto`` would rank by meaning wherever the model is installed, as it is here, and embed
#: in the background in every test. tests/lcm/test_embeddings_default.py tests ``auto``.
os.environ["HERMES_LCM_EMBEDDING_MODEL"] = "none"


@pytest.fixture
def logs() -> Iterator[EventCapture]:
    """Structured events emitted during the test, as dicts."""
    with capture_events() as capture:
        yield capture


@pytest.fixture(scope="session")
def httpserver_listen_address() -> tuple[str, int]:
    """pytest-httpserver listens on 127.0.0.1 (not whatever 'localhost' resolves to)."""
    return ("127.0.0.1", 0)


BACKENDS = ("sqlite", "postgresql")


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "lcm_backend" in metafunc.fixturenames:
        only_sqlite = metafunc.definition.get_closest_marker("sqlite_only") is not None
        metafunc.parametrize("lcm_backend", BACKENDS[:1] if only_sqlite else BACKENDS)


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """Say it at the end, not only in the skip list: a run without PostgreSQL tested less."""
    skipped = [
        report
        for report in terminalreporter.stats.get("skipped", [])
        if POSTGRES_SKIPPED in str(getattr(report, "longrepr", ""))
    ]
    if skipped:
        terminalreporter.write_sep(
            "!",
            f"{len(skipped)} tests did not run on PostgreSQL (no server binaries here): "
            "apt-get install postgresql, or set HERMES_POSTGRES_BIN, then run again",
            yellow=True,
            bold=True,
        )


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """One PostgreSQL server for the session (fsync off: the tests are not about disks)."""
    with started_postgres() as server:
        yield server
        left = server.close_clients()
        if left:  # a test left a connection open: say which databases, then close it
            warnings.warn(
                f"connections left open at the end of the tests, now closed: {left}",
                stacklevel=1,
            )


@pytest.fixture
def new_store(
    lcm_backend: str, tmp_path: Path, request: pytest.FixtureRequest
) -> Callable[[], dict[str, Any]]:
    """Each call: the ``lcm`` settings of a new, empty store on the test's backend."""
    made = [0]

    def new() -> dict[str, Any]:
        made[0] += 1
        if lcm_backend == "sqlite":
            return {"database": str(tmp_path / f"store-{made[0]}" / "lcm.db")}
        server: PostgresServer = request.getfixturevalue("postgres_server")
        return {"database_url": server.create_database()}

    return new


@pytest.fixture
def lcm_settings(lcm_backend: str, new_store: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    """The ``lcm`` settings of the test's store: SQLite's default file under tmp_path, or a
    new PostgreSQL database."""
    return {} if lcm_backend == "sqlite" else new_store()


@pytest.fixture
def make_lcm(tmp_path: Path, lcm_settings: dict[str, Any]) -> Iterator[Callable[..., LCMEngine]]:
    """Build LCM engines on one store (per test) of the test's backend; ``lcm`` settings as
    keywords."""
    from hermes_engine_lcm import LCMEngine

    engines: list[LCMEngine] = []

    def make(
        context_length: int = 20_000,
        llm: Any = None,
        clock: Callable[[], float] | None = None,
        **settings: Any,
    ) -> LCMEngine:
        config = {
            "lcm": {
                "fresh_tail_messages": 8,
                "leaf_chunk_tokens": 1_500,
                **lcm_settings,
                **settings,
            }
        }
        engine = LCMEngine(config, hermes_home=tmp_path, llm=llm, clock=clock or time.monotonic)
        engine.update_model("model", context_length)
        engines.append(engine)
        return engine

    yield make
    for engine in engines:
        engine.close()


@pytest.fixture
def make_lcm_host(
    tmp_path: Path, lcm_settings: dict[str, Any]
) -> Iterator[Callable[..., ContextHost]]:
    """Build hosts running LCM on the test's store and backend; config sections as keywords
    (``lcm=`` merged over the store's settings)."""
    from hermes_engine_lcm import LCMEngine

    hosts: list[ContextHost] = []

    def make(context_length: int = 100_000, **sections: Any) -> ContextHost:
        config = {**sections, "lcm": {**lcm_settings, **sections.get("lcm", {})}}
        host = host_for(LCMEngine, "lcm", config, env={"HERMES_HOME": str(tmp_path)})
        host.update_model("model", context_length)
        hosts.append(host)
        return host

    yield make
    for host in hosts:
        host.close()

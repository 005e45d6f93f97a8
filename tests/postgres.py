"""PostgreSQL servers for the tests: skipped, loudly, where PostgreSQL is not installed.

A contributor without PostgreSQL (and without root to install it) can still run the
suite: the tests that need a server are skipped, each with a reason naming how to
run them, and the run ends with a line counting them. ``.ci/run`` sets
``$HERMES_REQUIRE_POSTGRES=1``: there a missing server fails the run instead.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:  # the e2e session runs without hermes-engine-lcm installed
    from hermes_engine_lcm.testing import PostgresServer

#: Set to 1 to make a missing PostgreSQL an error instead of a skip.
REQUIRE_POSTGRES = "HERMES_REQUIRE_POSTGRES"
#: How every such skip's reason begins (the end-of-run summary counts them by it).
POSTGRES_SKIPPED = "PostgreSQL tests skipped"


@contextmanager
def started_postgres(durable: bool = False) -> Iterator[PostgresServer]:
    """A running PostgreSQL server, stopped on exit. Without PostgreSQL's binaries the
    calling test is skipped, or fails when ``$HERMES_REQUIRE_POSTGRES`` is 1."""
    from hermes_engine_lcm.testing import PostgresServer, PostgresUnavailable

    server = PostgresServer(durable=durable)
    try:
        server.start()
    except PostgresUnavailable as error:
        if os.environ.get(REQUIRE_POSTGRES) == "1":
            pytest.fail(f"{error} (${REQUIRE_POSTGRES}=1: these tests must run)", pytrace=False)
        pytest.skip(
            f"{POSTGRES_SKIPPED}: {error}, or set $HERMES_POSTGRES_BIN to a folder holding "
            "initdb and postgres"
        )
    try:
        yield server
    finally:
        server.stop()


@contextmanager
def holding_session_lock(url: str, session_id: str) -> Iterator[None]:
    """Within the block another client holds ``session_id``'s write lock in the store at
    ``url``, as a writer of another process would."""
    import psycopg
    from hermes_engine_lcm.store.keys import session_key
    from hermes_engine_lcm.store.postgres.database import LOCK_SESSION

    with psycopg.connect(url, autocommit=True) as holder:
        holder.execute(
            "SELECT pg_advisory_lock(%s, hashtext(%s))", (LOCK_SESSION, session_key(session_id))
        )
        yield

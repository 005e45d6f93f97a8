"""lcm's store: SQLite and PostgreSQL are peers behind one protocol; the shared modules
never ask which backend runs, and no SQL lives outside the store."""

from __future__ import annotations

import re
from pathlib import Path

import hermes_engine_lcm
import pytest
from hermes_engine_lcm.store.postgres.connection import PostgresConnection
from hermes_engine_lcm.store.protocol import Connection
from hermes_engine_lcm.store.sqlite.connection import SQLiteConnection

PACKAGE = Path(hermes_engine_lcm.__file__).parent
STORE = PACKAGE / "store"
BACKENDS = ("sqlite", "postgres")
SQL = re.compile(r"\b(SELECT\s+\S|INSERT\s+INTO|UPDATE\s+\w+\s+SET|DELETE\s+FROM|CREATE\s+TABLE)")
BACKEND_NAME = re.compile(r"""["'](sqlite|postgresql)["']""")


def _modules(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob("*.py") if "__pycache__" not in p.parts)


def test_no_sql_outside_the_store() -> None:
    outside = [p for p in _modules(PACKAGE) if STORE not in p.parents]
    assert len(outside) > 10
    found = [str(p.relative_to(PACKAGE)) for p in outside if SQL.search(p.read_text())]
    assert found == []


def test_the_shared_modules_never_name_a_backend_to_choose_one() -> None:
    shared = [
        p
        for p in _modules(STORE)
        if not any(STORE / b in p.parents for b in BACKENDS) and p.name != "open.py"
    ]
    assert {p.name for p in shared} >= {"search.py", "records.py", "protocol.py"}
    named = [p.name for p in shared if BACKEND_NAME.search(p.read_text())]
    assert named == []


def test_the_backends_are_peer_packages_that_import_nothing_of_each_other() -> None:
    for backend in BACKENDS:
        other = next(b for b in BACKENDS if b != backend)
        for module in _modules(STORE / backend):
            text = module.read_text()
            assert f"store.{other}" not in text, module


@pytest.mark.parametrize("connection", [SQLiteConnection, PostgresConnection])
def test_each_backends_connection_has_every_method_of_the_protocol(
    connection: type,
) -> None:
    wanted = {n for n in vars(Connection) if not n.startswith("_")}
    assert {"execute", "new_ids", "insert_rows", "index_messages", "searcher"} <= wanted
    assert [n for n in sorted(wanted) if not callable(getattr(connection, n, None))] == []

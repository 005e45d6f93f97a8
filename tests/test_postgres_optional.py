"""Without PostgreSQL the suite still runs: its PostgreSQL tests are skipped and counted
at the end, unless ``$HERMES_REQUIRE_POSTGRES`` makes that a failure (as in ``.ci/run``)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
#: One test of the LCM suite that needs a PostgreSQL server.
SELECTED = (
    "tests/lcm/test_postgres_fleet.py::test_ten_workers_starting_together_apply_each_migration_once"
)


def _pytest(tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-rs", "-p", "no:cacheprovider", SELECTED],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "HERMES_POSTGRES_BIN": str(tmp_path / "no-postgres"), **env},
        timeout=300,
    )


def test_without_postgres_its_tests_are_skipped_saying_how_to_run_them(tmp_path: Path) -> None:
    result = _pytest(tmp_path, HERMES_REQUIRE_POSTGRES="")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "1 skipped" in result.stdout
    assert "PostgreSQL tests skipped" in result.stdout
    assert "no-postgres, which holds no initdb and postgres" in result.stdout
    assert "1 tests did not run on PostgreSQL" in result.stdout


def test_where_postgres_is_required_its_absence_fails_the_run(tmp_path: Path) -> None:
    result = _pytest(tmp_path, HERMES_REQUIRE_POSTGRES="1")
    assert result.returncode == 1, result.stdout + result.stderr
    assert "HERMES_REQUIRE_POSTGRES=1: these tests must run" in result.stdout
    assert "skipped" not in result.stdout


def test_the_test_server_keeps_its_data_in_memory_where_there_is_room_and_a_durable_one_never(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from hermes_engine_lcm import testing

    roomy = tmp_path / "shm"
    roomy.mkdir()
    monkeypatch.setattr(testing, "RAM_FOLDER", roomy)
    monkeypatch.setattr(testing, "RAM_ROOM", 1)
    assert testing.scratch_parent(durable=False) == str(roomy)
    assert testing.scratch_parent(durable=True) is None
    monkeypatch.setattr(testing, "RAM_ROOM", 1 << 62)  # no folder has that much room
    assert testing.scratch_parent(durable=False) is None
    monkeypatch.setattr(testing, "RAM_FOLDER", tmp_path / "absent")
    assert testing.scratch_parent(durable=False) is None


def test_the_session_server_runs_from_memory_on_this_machine(postgres_server: Any) -> None:
    """Where ``/dev/shm`` has room (as on CI), the suite's databases are made in memory."""
    from hermes_engine_lcm import testing

    if testing.scratch_parent(durable=False) is None:
        pytest.skip("no RAM filesystem with room here: the server runs from disk")
    assert str(postgres_server.folder).startswith(f"{testing.RAM_FOLDER}/")

"""Without PostgreSQL the suite still runs: its PostgreSQL tests are skipped and counted
at the end, unless ``$HERMES_REQUIRE_POSTGRES`` makes that a failure (as in ``.ci/run``)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

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

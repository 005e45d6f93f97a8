"""The hermes-context command line, run as a subprocess with real config files."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from hermes_core.testing import TemporarySite
from tests.conftest import engine_source


def run(*args: str, home: Path, site: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, HERMES_HOME=str(home))
    env.pop("HERMES_CONFIG", None)
    env.pop("HERMES_CONTEXT_ENGINE", None)
    if site is not None:
        env["PYTHONPATH"] = str(site)
    return subprocess.run(
        [sys.executable, "-m", "hermes_core", *args], env=env, capture_output=True, text=True
    )


def test_engines_lists_the_installed_engines_and_the_selection(
    tmp_path: Path, hermes_site: TemporarySite
) -> None:
    hermes_site.add_engine("acme-engine", "acme", engine_source("acme"), summary="Acme things")
    (tmp_path / "config.yaml").write_text("context:\n  engine: acme\n", encoding="utf-8")
    result = run("engines", home=tmp_path, site=hermes_site.path)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    acme = next(line for line in lines if line.startswith("acme "))
    assert "selected" in acme and "distribution acme-engine 1.0" in acme and "Acme things" in acme
    assert any(line.startswith("compressor ") and "available" in line for line in lines)
    assert f"selected: acme (by {tmp_path / 'config.yaml'}" in result.stdout


def test_engines_json_has_the_selection_and_one_entry_per_registration(
    tmp_path: Path, hermes_site: TemporarySite
) -> None:
    hermes_site.add_engine("one-engine", "twin", engine_source("twin"))
    hermes_site.add_engine("two-engine", "twin", engine_source("twin"))
    result = run("engines", "--json", home=tmp_path, site=hermes_site.path)
    data = json.loads(result.stdout)
    assert data["selected"] == "compressor"
    twins = [e for e in data["engines"] if e["name"] == "twin"]
    assert [(e["distribution"], e["status"]) for e in twins] == [
        ("one-engine", "available"),
        ("two-engine", "duplicate"),
    ]
    assert "context_engine.duplicate_rejected" in result.stderr


def test_a_broken_config_is_a_warning_not_a_crash(tmp_path: Path) -> None:
    (tmp_path / "config.yaml").write_text("context: [\n", encoding="utf-8")
    result = run("engines", home=tmp_path)
    assert result.returncode == 0
    assert "hermes_config.invalid" in result.stderr
    assert "Traceback" not in result.stderr


def test_a_broken_config_in_strict_mode_is_one_clear_error(tmp_path: Path) -> None:
    (tmp_path / "config.yaml").write_text(
        "context:\n  strict: true\n  engine: 7\n", encoding="utf-8"
    )
    result = run("engines", home=tmp_path)
    assert result.returncode == 2
    assert "key 'context.engine' expected an engine name" in result.stderr
    assert "Traceback" not in result.stderr

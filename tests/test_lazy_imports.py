"""Listing reads metadata only; activation imports the selected engine and nothing else."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from hermes_core.testing import TemporarySite, engine_module_source

PROBE = """
import json, sys
from hermes_core import activate, discover, load_config
registry = discover(load_config({}))
if sys.argv[1] == "activate":
    activate(registry)
watched = ["alpha_engine", "beta_engine", "gamma_engine", "hermes_compressor"]
imported = [m for m in watched if m in sys.modules]
print(json.dumps({"names": [r.name for r in registry], "imported": imported}))
"""


def run_probe(site: TemporarySite, mode: str, engine: str) -> dict[str, list[str]]:
    env = dict(os.environ, PYTHONPATH=str(site.path), HERMES_CONTEXT_ENGINE=engine)
    env["HERMES_HOME"] = str(site.path / "home")
    out = subprocess.run(
        [sys.executable, "-c", PROBE, mode], env=env, capture_output=True, text=True, check=True
    ).stdout
    result: dict[str, list[str]] = json.loads(out.splitlines()[-1])
    return result


def install_three(site: TemporarySite) -> None:
    for name in ("alpha", "beta", "gamma"):
        site.add_engine(f"{name}-engine", name, engine_module_source(name))


def test_listing_imports_no_engine_module(hermes_site: TemporarySite) -> None:
    install_three(hermes_site)
    result = run_probe(hermes_site, "list", "beta")
    assert {"alpha", "beta", "gamma", "compressor"} <= set(result["names"])
    assert result["imported"] == []


def test_activation_imports_only_the_selected_engine(hermes_site: TemporarySite) -> None:
    install_three(hermes_site)
    assert run_probe(hermes_site, "activate", "beta")["imported"] == ["beta_engine"]


def test_the_default_engine_is_imported_only_when_selected(hermes_site: TemporarySite) -> None:
    install_three(hermes_site)
    assert run_probe(hermes_site, "activate", "compressor")["imported"] == ["hermes_compressor"]


def test_importing_the_library_loads_no_console_or_command_line_package() -> None:
    probe = (
        "import sys, json; import hermes_core; "
        "print(json.dumps([m for m in ('rich', 'click', 'plotille', 'structlog', 'httpx') "
        "if m in sys.modules]))"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert json.loads(out.stdout) == []


def test_standing_instructions_load_when_an_engine_asks_for_them() -> None:
    probe = (
        "import sys, hermes_core; before = 'hermes_core.standing' in sys.modules; "
        "cls = hermes_core.StandingInstructions; "
        "print(before, 'hermes_core.standing' in sys.modules, cls.__name__)"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "True", "StandingInstructions"]

"""Where a name is defined is no promise: below its packages, every module of hermes_core
is private (a leading underscore, as pluggy's and httpx's are), and the paths that were
public-looking until now still import, with a DeprecationWarning, as the very module."""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path

import pytest

import hermes_core
from hermes_core._moved import MOVED

ROOT = Path(hermes_core.__file__).resolve().parent
#: Modules whose path something outside Python names: Hermes' entry point, and the test file
#: the pytest plugin collects for ``--hermes-engine``.
NAMED_FROM_OUTSIDE = {"hermes_agent/plugin.py", "testing/named_engine.py"}


def test_every_module_below_the_packages_is_private() -> None:
    public = []
    for path in ROOT.rglob("*.py"):
        relative = path.relative_to(ROOT).as_posix()
        parts = relative.split("/")
        if path.name in {"__init__.py", "__main__.py"} or relative in NAMED_FROM_OUTSIDE:
            continue
        if not any(part.startswith("_") for part in parts):
            public.append(relative)
    assert public == [], f"name them with a leading underscore: {sorted(public)}"


@pytest.mark.parametrize("old", sorted(MOVED))
def test_an_old_path_warns_and_is_the_module_itself(old: str) -> None:
    """In a fresh interpreter (an import of the old path is cached once done)."""
    code = (
        "import importlib, warnings\n"
        "warnings.simplefilter('error')\n"
        f"new = importlib.import_module({MOVED[old]!r})\n"
        "try:\n"
        f"    importlib.import_module({old!r})\n"
        "except DeprecationWarning as warning:\n"
        "    print(warning)\n"
        "warnings.simplefilter('ignore')\n"
        f"print(importlib.import_module({old!r}) is new)\n"
    )
    shown = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.splitlines()
    assert shown[-1] == "True", shown
    assert shown[0].startswith(f"{old} is deprecated: it is the private module {MOVED[old]}")


def test_every_moved_module_exists_under_its_new_name() -> None:
    missing = [new for new in MOVED.values() if importlib.util.find_spec(new) is None]
    assert missing == []


def test_no_module_of_either_distribution_is_over_500_lines() -> None:
    """One idea per module (docs STYLE): past 500 lines a module holds two."""
    roots = [ROOT, ROOT.parent / "hermes_compressor", ROOT.parent / "hermes_lcm_example"]
    long = {
        path.relative_to(ROOT.parent).as_posix(): count
        for root in roots
        for path in root.rglob("*.py")
        if (count := len(path.read_text(encoding="utf-8").splitlines())) > 500
    }
    assert long == {}

"""Where a name is defined is no promise: below its packages, every module of hermes_core
is private (a leading underscore, as pluggy's and httpx's are), and the paths that were
public-looking until now still import, with a DeprecationWarning, as the very module."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
from pathlib import Path

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


#: Run in a fresh interpreter: an import of an old path is cached once done, and nothing
#: there imported one before. Prints, per old path, the warning it raised and whether it
#: then gave the very module of its new path.
_IMPORT_EACH = """
import importlib, json, sys, warnings
from hermes_core._moved import MOVED
seen = {}
for old, now in sorted(MOVED.items()):
    warnings.simplefilter("error")
    new = importlib.import_module(now)
    try:
        importlib.import_module(old)
        warned = None
    except DeprecationWarning as warning:
        warned = str(warning)
    warnings.simplefilter("ignore")
    seen[old] = [warned, importlib.import_module(old) is new]
print(json.dumps(seen))
"""


def test_every_old_path_warns_and_is_the_module_itself() -> None:
    shown = subprocess.run(
        [sys.executable, "-c", _IMPORT_EACH], capture_output=True, text=True, check=True
    ).stdout
    seen = json.loads(shown)
    assert sorted(seen) == sorted(MOVED)
    wrong = {
        old: (warned, same)
        for old, (warned, same) in seen.items()
        if not same
        or not str(warned).startswith(f"{old} is deprecated: it is the private module {MOVED[old]}")
    }
    assert wrong == {}


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

"""Importing a plugin folder as a package of its own, so its relative imports work.

Directory engines and Hermes Agent plugin folders are both imported this way:
under ``<namespace>.<folder name>_<digest of the folder's path>``, so two homes'
``foo`` (or ``my-eng`` and ``my_eng``) never share a module, and a folder is
imported once per process.

An import is atomic for every caller of :func:`import_package`: one lock per
package, and a module is handed out only once it has run to its end. A thread
that asks while another imports the same folder waits for it (its caller bounds
the wait); an import that failed, or that its caller gave up on and that is
still running, is never handed out half-made.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import re
import sys
import threading
from pathlib import Path
from types import ModuleType

__all__ = ["import_package", "package_name"]


def package_name(namespace: str, folder: Path) -> str:
    """The module ``folder`` is imported as under ``namespace``."""
    digest = hashlib.blake2b(str(folder.resolve()).encode(), digest_size=6).hexdigest()
    safe = re.sub(r"\W", "_", folder.name)
    return f"{namespace}.{safe}_{digest}"


def _ensure_parents(name: str) -> None:
    """Every package above ``name`` exists in ``sys.modules`` (as an empty namespace
    package), as Hermes Agent makes them before it loads a plugin: Python resolves a
    plugin's relative imports (``from . import tools``) through them."""
    parts = name.split(".")[:-1]
    for depth in range(1, len(parts) + 1):
        parent = ".".join(parts[:depth])
        if parent in sys.modules:
            continue
        spec = importlib.machinery.ModuleSpec(parent, None, is_package=True)
        spec.submodule_search_locations = []
        module = importlib.util.module_from_spec(spec)
        sys.modules[parent] = module
        if depth > 1:
            setattr(sys.modules[".".join(parts[: depth - 1])], parts[depth - 1], module)


#: One lock per package name, and the names whose import ran to its end.
_locks: dict[str, threading.Lock] = {}
_locks_guard = threading.Lock()
_executed: set[str] = set()


def import_package(name: str, folder: Path) -> ModuleType:
    """``folder/__init__.py`` imported as package ``name`` (once; a failed import leaves
    nothing behind in ``sys.modules``), its parents made first; ``__file__``,
    ``__path__`` and relative imports of every form (``from . import x``,
    ``from .x import y``, subpackages) are what the plugin expects. Concurrent callers
    wait for one import, and get the module only once it has executed."""
    with _locks_guard:
        lock = _locks.setdefault(name, threading.Lock())
    with lock:
        module = sys.modules.get(name)
        if module is not None and name in _executed:
            return module
        module = _execute(name, folder)
        _executed.add(name)
        return module


def _execute(name: str, folder: Path) -> ModuleType:
    _ensure_parents(name)
    spec = importlib.util.spec_from_file_location(
        name, folder / "__init__.py", submodule_search_locations=[str(folder)]
    )
    if spec is None or spec.loader is None:
        raise ImportError(f"{folder / '__init__.py'} cannot be imported")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[name]
        raise
    return module

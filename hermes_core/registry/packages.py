"""Importing a plugin folder as a package of its own, so its relative imports work.

Directory engines and Hermes Agent plugin folders are both imported this way:
under ``<namespace>.<folder name>_<digest of the folder's path>``, so two homes'
``foo`` (or ``my-eng`` and ``my_eng``) never share a module, and a folder is
imported once per process.
"""

from __future__ import annotations

import hashlib
import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType

__all__ = ["import_package", "package_name"]


def package_name(namespace: str, folder: Path) -> str:
    """The module ``folder`` is imported as under ``namespace``."""
    digest = hashlib.blake2b(str(folder.resolve()).encode(), digest_size=6).hexdigest()
    safe = re.sub(r"\W", "_", folder.name)
    return f"{namespace}.{safe}_{digest}"


def import_package(name: str, folder: Path) -> ModuleType:
    """``folder/__init__.py`` imported as package ``name`` (once; a failed import leaves
    nothing behind in ``sys.modules``)."""
    if name in sys.modules:
        return sys.modules[name]
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

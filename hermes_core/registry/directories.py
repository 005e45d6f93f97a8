"""Source 2: engines in plugin directories, ``<dir>/context_engine/<name>/``.

Each engine directory holds ``__init__.py`` (exporting one ``ContextEngine``
subclass) and ``plugin.yaml`` (``name``, ``description``, ``version``,
``requires_hermes``). Listing reads ``plugin.yaml`` only; the package is
imported when the engine is activated.
"""

from __future__ import annotations

import inspect
from collections.abc import Iterable
from pathlib import Path
from types import ModuleType
from typing import Any

from hermes_core.config.yaml_source import YamlSyntaxError, parse_yaml
from hermes_core.engine import ContextEngine
from hermes_core.log import logger
from hermes_core.names import is_valid_engine_name
from hermes_core.registry.compat import parse_requires_hermes, running_version
from hermes_core.registry.packages import import_package, package_name
from hermes_core.registry.records import EngineRecord, EngineSource, EngineStatus

__all__ = ["directory_records", "load_directory_engine"]

_MANIFEST = "plugin.yaml"
_STRING_KEYS = ("name", "description", "version", "requires_hermes")


def directory_records(plugin_dirs: Iterable[Path]) -> list[EngineRecord]:
    """One record per engine directory, in the order of ``plugin_dirs``, then by name."""
    records = []
    for root in plugin_dirs:
        base = root / "context_engine"
        try:
            if not base.is_dir():
                continue
            entries = sorted(base.iterdir())
        except OSError as exc:  # unreadable: the other sources still count
            logger.warning(
                "hermes_plugin.directory_unreadable",
                directory=str(base),
                error=f"{type(exc).__name__}: {exc.strerror or exc}",
                hint="fix its permissions, or remove it from plugins.dirs",
            )
            continue
        for path in entries:
            try:
                is_engine = path.is_dir() and not path.name.startswith((".", "_"))
            except OSError:
                is_engine = False
            if is_engine:
                records.append(_record(path))
    return records


def _record(path: Path) -> EngineRecord:
    name = path.name
    source = EngineSource("directory", path=path)
    manifest = path / _MANIFEST

    def broken(reason: str) -> EngineRecord:
        return EngineRecord(name, source, EngineStatus.BROKEN, reason=reason)

    if not is_valid_engine_name(name):
        return broken(f"directory name '{name}' is not a valid engine name; rename {path}")
    if not (path / "__init__.py").is_file():
        return broken(f"{path} has no __init__.py; it must export a ContextEngine subclass")
    try:
        data = parse_yaml(manifest.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return broken(f"{manifest} is missing; add name, description, version, requires_hermes")
    except (OSError, UnicodeDecodeError) as exc:
        return broken(f"{manifest} cannot be read: {exc}")
    except YamlSyntaxError as exc:
        line = f":{exc.line}" if exc.line else ""
        return broken(f"{manifest}{line}: {exc}")
    if not isinstance(data, dict):
        return broken(f"{manifest}: expected a mapping of {', '.join(_STRING_KEYS)}")
    for key in _STRING_KEYS:
        if key in data and not isinstance(data[key], str):
            return broken(f"{manifest}: key '{key}' expected a string, got {data[key]!r}")
    if data.get("name", name) != name:
        return broken(
            f"{manifest}: key 'name' is '{data['name']}' but the directory is '{name}'; "
            "make them equal"
        )
    record = EngineRecord(
        name,
        source,
        EngineStatus.AVAILABLE,
        description=data.get("description", ""),
        version=data.get("version"),
        load=lambda: load_directory_engine(path),
    )
    if "requires_hermes" in data:
        try:
            specifier = parse_requires_hermes(data["requires_hermes"])
        except ValueError as exc:
            return broken(f"{manifest}: key 'requires_hermes' is {exc}")
        if not specifier.contains(running_version(), prereleases=True):
            record.status = EngineStatus.INCOMPATIBLE
            record.reason = (
                f"{manifest} requires hermes-context{specifier}, running {running_version()}"
            )
    return record


def load_directory_engine(path: Path) -> type[ContextEngine]:
    """Import the engine package at ``path`` and return the ``ContextEngine`` subclass it exports.

    The package is imported under ``hermes_plugins.context_engine.<name>``, so
    its relative imports work. Raises ImportError when it exports no subclass
    or several (narrow them with ``__all__``).
    """
    module = import_package(package_name("hermes_plugins.context_engine", path), path)
    return _exported_engine(module, path)


def _exported_engine(module: ModuleType, path: Path) -> type[ContextEngine]:
    names: Iterable[str] = getattr(module, "__all__", None) or [
        n for n in vars(module) if not n.startswith("_")
    ]
    found: dict[str, Any] = {}
    for attribute in names:
        value = getattr(module, attribute, None)
        if (
            inspect.isclass(value)
            and issubclass(value, ContextEngine)
            and value is not ContextEngine
            and not inspect.isabstract(value)
        ):
            found[attribute] = value
    if len(found) != 1:
        what = ", ".join(sorted(found)) if found else "none"
        raise ImportError(
            f"{path / '__init__.py'} must export exactly one concrete ContextEngine subclass "
            f"(found: {what}); list the engine class in __all__"
        )
    engine: type[ContextEngine] = next(iter(found.values()))
    return engine

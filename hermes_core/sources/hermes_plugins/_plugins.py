"""Source 4: Hermes Agent plugins that register a context engine.

Hermes Agent's own rules: a plugin is a directory ``$HERMES_HOME/plugins/<name>/``
(``plugin.yaml`` and ``__init__.py`` with ``register(ctx)``) or an entry point
in group ``hermes_agent.plugins``; an entry point wins over a directory of
the same name; none is loaded unless its name is in ``plugins.enabled``.

An enabled plugin whose Python files never mention
``register_context_engine`` registers no engine and is not loaded (Hermes
Agent tells memory providers apart the same way). The others are imported
(directories as a package named after their folder, so relative imports
work) and their ``register(ctx)`` is run with a
:class:`~hermes_core.sources.hermes_plugins._plugin_context.HermesPluginContext`. The
engine it registers is listed under its own name; each host gets an engine
of its own by running ``register`` again (the first host gets the one found
at discovery), never by copying one. Failures are records with status
``broken``; none stops discovery.
"""

from __future__ import annotations

import importlib.util
import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hermes_core._containment import PluginTimeout, call_with_limit, reraise_user_interrupt
from hermes_core._engine import ContextEngine
from hermes_core._errors import NotAnEngine
from hermes_core._log import logger
from hermes_core._names import is_valid_engine_name
from hermes_core.config._yaml_source import YamlSyntaxError, parse_yaml
from hermes_core.llm import LLM
from hermes_core.registry._records import EngineRecord, EngineSource, EngineStatus
from hermes_core.sources._entry_points import DeclaredEntryPoint, InstalledEntryPoints
from hermes_core.sources._manifests import manifest_gate
from hermes_core.sources._packages import import_package, package_name
from hermes_core.sources.hermes_plugins import _shims as shims
from hermes_core.sources.hermes_plugins._engine_folders import INSTALL_HERMES, hermes_module_missing
from hermes_core.sources.hermes_plugins._plugin_context import HermesPluginContext
from hermes_core.sources.hermes_plugins._tail_rules import release_for
from hermes_core.sources.hermes_plugins._wrapped_engine import HermesPluginEngine

if TYPE_CHECKING:
    from hermes_core.sources._source import DiscoveryContext

__all__ = ["HermesPlugin", "HermesPluginSource", "find_hermes_plugins", "hermes_plugin_records"]

#: Folders of ``plugins/`` that Hermes Agent discovers by other means.
_NOT_GENERAL = frozenset({"memory", "context_engine", "platforms", "model-providers"})
_MARK = "register_context_engine"
#: Source read to find the mark, at most, per plugin directory.
_MAX_SOURCE_BYTES = 2 * 1024 * 1024
_REQUIRED = ("name", "update_from_response", "should_compress", "compress")


@dataclass(frozen=True)
class HermesPlugin:
    """One Hermes Agent plugin: a directory or an entry point, by the name it is enabled as."""

    name: str
    path: Path | None = None
    description: str = ""
    version: str | None = None
    declared: DeclaredEntryPoint | None = None
    #: ``provides_context_engine`` of its plugin.yaml: the engine names it says it registers.
    provides: tuple[str, ...] = ()
    #: Why its plugin.yaml says it cannot run here (status and reason), or None.
    gate: tuple[EngineStatus, str] | None = None
    #: The Hermes release its plugin.yaml's ``requires_hermes`` admits, newest known first:
    #: the stand-ins follow its rules (None: the default release's).
    hermes_release: str | None = None

    @property
    def source(self) -> EngineSource:
        if self.declared is not None:
            dist = self.declared.distribution
            return EngineSource(
                "hermes_plugin", distribution=dist.name, version=dist.version, plugin=self.name
            )
        return EngineSource("hermes_plugin", path=self.path, plugin=self.name)


def _manifest(folder: Path, manifest: Path) -> HermesPlugin | None:
    try:
        data = parse_yaml(manifest.read_text(encoding="utf-8")) or {}
    except (OSError, UnicodeDecodeError, YamlSyntaxError) as exc:
        logger.warning(
            "hermes_plugin.manifest_unreadable",
            path=str(manifest),
            error=f"{type(exc).__name__}: {exc}",
        )
        return None
    if not isinstance(data, dict):
        return None
    name = data.get("name", folder.name)
    if not isinstance(name, str) or not name:
        return None
    version = data.get("version")
    provides = data.get("provides_context_engine") or ()
    if isinstance(provides, str):
        provides = (provides,)
    try:
        gate = manifest_gate(manifest, data)
    except ValueError as exc:
        gate = (EngineStatus.BROKEN, str(exc))
    return HermesPlugin(
        name=name,
        path=folder,
        description=str(data.get("description", "") or ""),
        version=str(version) if version is not None else None,
        provides=tuple(p for p in provides if isinstance(p, str) and is_valid_engine_name(p)),
        gate=gate,
        hermes_release=release_for(data.get("requires_hermes")),
    )


def _manifest_file(folder: Path) -> Path | None:
    """``plugin.yaml``, else ``plugin.yml`` (Hermes Agent reads either)."""
    for candidate in (folder / "plugin.yaml", folder / "plugin.yml"):
        try:
            if candidate.is_file():
                return candidate
        except OSError:
            continue
    return None


def _keep_one(found: dict[str, HermesPlugin], plugin: HermesPlugin) -> None:
    """Add ``plugin`` unless a folder already holds its name: a folder named as its manifest
    says wins over one that only claims the name (``zz-other`` saying ``name: good``), and
    the other is reported, never replaced in silence."""
    kept = found.get(plugin.name)
    if kept is not None:
        assert kept.path is not None and plugin.path is not None
        if plugin.path.name == plugin.name and kept.path.name != kept.name:
            kept, plugin = plugin, kept
        logger.warning(
            "hermes_plugin.duplicate_rejected",
            name=plugin.name,
            kept=str(kept.path),
            rejected=str(plugin.path),
            hint="two plugin folders name the same plugin in plugin.yaml: rename or remove one",
        )
    found[plugin.name] = kept if kept is not None else plugin


def find_hermes_plugins(
    plugins_dir: Path, entry_points: Iterable[DeclaredEntryPoint]
) -> dict[str, HermesPlugin]:
    """Every Hermes Agent plugin by name: ``plugins_dir/<folder>/plugin.yaml``, then entry
    points of group ``hermes_agent.plugins`` (which win over a directory of the same name)."""
    found: dict[str, HermesPlugin] = {}
    try:
        folders = sorted(plugins_dir.iterdir()) if plugins_dir.is_dir() else []
    except OSError as exc:
        logger.warning(
            "hermes_plugin.directory_unreadable",
            directory=str(plugins_dir),
            error=f"{type(exc).__name__}: {exc.strerror or exc}",
        )
        folders = []
    for folder in folders:
        if folder.name in _NOT_GENERAL or folder.name.startswith((".", "_")):
            continue
        manifest = _manifest_file(folder)
        plugin = _manifest(folder, manifest) if manifest is not None else None
        if plugin is not None:
            _keep_one(found, plugin)
    for declared in entry_points:
        name = declared.entry_point.name
        found[name] = HermesPlugin(
            name=name,
            description=declared.distribution.summary,
            version=declared.distribution.version,
            declared=declared,
        )
    return found


def _mentions(folder: Path, mark: str) -> bool:
    """Whether the Python files under ``folder`` (or the file ``folder``) mention ``mark``
    (read up to a budget)."""
    budget = _MAX_SOURCE_BYTES
    files = [folder] if folder.is_file() else sorted(folder.rglob("*.py"))
    for source in files:
        try:
            with source.open("rb") as handle:
                text = handle.read(budget)
        except OSError:
            continue
        budget -= len(text)
        if mark.encode() in text:
            return True
        if budget <= 0:
            break
    return False


def _mentions_an_engine(folder: Path) -> bool:
    return _mentions(folder, _MARK)


def _plugin_folder(plugin: HermesPlugin) -> Path | None:
    """Where the plugin's code is: its directory, or its entry point's package folder (or
    module file)."""
    if plugin.path is not None:
        return plugin.path
    assert plugin.declared is not None
    module = plugin.declared.entry_point.value.split(":")[0].strip()
    try:
        spec = importlib.util.find_spec(module.split(".")[0])
    except (ImportError, ValueError):
        return None
    if spec is None or spec.origin is None:
        return None
    if spec.submodule_search_locations:
        return Path(spec.origin).parent
    return Path(spec.origin)


def _shipped_provides(plugin: HermesPlugin) -> tuple[str, ...]:
    """``provides_context_engine`` of the plugin.yaml an entry-point plugin ships in its
    package (Hermes reads manifests of folders only; the names still say what it is)."""
    folder = _plugin_folder(plugin) if plugin.declared is not None else None
    if folder is None or not folder.is_dir():
        return ()
    manifest = _manifest_file(folder)
    found = _manifest(folder, manifest) if manifest is not None else None
    return found.provides if found is not None else ()


def _built_on_hermes_compressor(plugin: HermesPlugin) -> bool:
    folder = _plugin_folder(plugin)
    return folder is not None and _mentions(folder, "context_compressor")


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else "(no message)"


def _registered_engine(plugin: HermesPlugin, register: Callable[[Any], None], home: Path) -> Any:
    """Run ``register(ctx)`` once; the engine it registered, or None. Raises
    :class:`NotAnEngine` when what it registered was no engine (and nothing else was)."""
    context = HermesPluginContext(plugin.name)
    with shims.bound(None, home), shims.following(plugin.hermes_release):
        register(context)
    if not context.engines and context.rejected:
        raise NotAnEngine(context.rejected[0])
    return context.engines[0] if context.engines else None


class _EngineMaker:
    """Makes one engine per call: the one found at discovery first, then by running the
    plugin's ``register`` again."""

    def __init__(
        self, plugin: HermesPlugin, register: Callable[[Any], None], first: Any, home: Path
    ) -> None:
        self._plugin = plugin
        self._register = register
        self._first: Any = first
        self._home = home
        self._lock = threading.Lock()

    def __call__(self, llm: LLM | None = None, hermes_home: Path | None = None) -> ContextEngine:
        home = hermes_home if hermes_home is not None else self._home
        with self._lock:
            engine, self._first = self._first, None
        if engine is None:
            engine = _registered_engine(self._plugin, self._register, home)
            if engine is None:
                raise RuntimeError(
                    f"Hermes plugin '{self._plugin.name}' registered no context engine this time"
                )
        return HermesPluginEngine(engine, llm=llm, hermes_home=home)


def _load(plugin: HermesPlugin, home: Path, limit: float) -> EngineRecord | None:
    """The plugin's engine record; None when it registers no engine. Its import and
    ``register`` get ``limit`` seconds (0: no limit)."""
    source = plugin.source

    # a plugin that cannot run is listed under the engine name it declares, if it does:
    # what the user selects is then told why it does not run
    provides = plugin.provides or _shipped_provides(plugin)
    listed = provides[0] if provides else plugin.name

    def broken(reason: str, status: EngineStatus = EngineStatus.BROKEN) -> EngineRecord:
        return EngineRecord(listed, source, status, reason=reason)

    def needs_hermes(what: str) -> EngineRecord:
        return broken(
            f"{source} is built on Hermes Agent's {what}, which only Hermes Agent provides: "
            f"{INSTALL_HERMES} into this environment to run it here",
            EngineStatus.NEEDS_HERMES_AGENT,
        )

    if plugin.path is not None and not _mentions_an_engine(plugin.path):
        logger.debug("hermes_plugin.no_engine", plugin=plugin.name, path=str(plugin.path))
        return None
    if plugin.gate is not None:  # decided from its plugin.yaml: never imported
        return broken(plugin.gate[1], plugin.gate[0])
    shims.install()

    def load() -> tuple[Callable[[Any], None] | None, Any]:
        if plugin.declared is not None:
            module = plugin.declared.entry_point.load()
        else:
            assert plugin.path is not None
            module = import_package(
                package_name("hermes_context_plugins", plugin.path), plugin.path
            )
        register = getattr(module, "register", None)
        if not callable(register):
            return None, None
        return register, _registered_engine(plugin, register, home)

    try:
        register, engine = call_with_limit(load, limit, f"Hermes plugin {plugin.name}")
        if register is None:
            return broken(f"{source} has no register(ctx) function")
    except PluginTimeout:
        return broken(
            f"{source}: its import and register(ctx) did not return within {limit:g} s "
            "(plugins.register_timeout_seconds); it was left running and is not used"
        )
    except NotAnEngine as exc:
        return broken(
            f"{source} registered a {exc} as its context engine, which does not inherit from "
            "agent.context_engine.ContextEngine: Hermes Agent ignores it too"
        )
    except BaseException as exc:
        reraise_user_interrupt(exc)
        missing_module = hermes_module_missing(exc)
        if missing_module is not None:
            return needs_hermes(missing_module)
        return broken(f"{source} failed to import: {type(exc).__name__}: {_first_line(exc)}")
    if engine is None:
        logger.debug("hermes_plugin.no_engine", plugin=plugin.name)
        return None
    missing = [attribute for attribute in _REQUIRED if not hasattr(engine, attribute)]
    if missing and not shims.hermes_installed() and _built_on_hermes_compressor(plugin):
        # it fell back to a base class of its own because Hermes' compressor is absent
        return needs_hermes("agent.context_compressor.ContextCompressor")
    if missing:
        return broken(
            f"{source} registered {type(engine).__name__}, which lacks {', '.join(missing)}: "
            "it must subclass agent.context_engine.ContextEngine"
        )
    name = engine.name
    if not isinstance(name, str) or not is_valid_engine_name(name):
        return broken(f"{source} registered an engine named {name!r}, not a valid engine name")
    maker = _EngineMaker(plugin, register, engine, home)
    return EngineRecord(
        name,
        source,
        EngineStatus.AVAILABLE,
        description=plugin.description,
        version=plugin.version,
        load=lambda: maker,
    )


def hermes_plugin_records(
    enabled: Sequence[str],
    home: Path,
    entry_points: Iterable[DeclaredEntryPoint],
    register_timeout: float = 0,
) -> tuple[list[EngineRecord], set[str]]:
    """The engines of the enabled Hermes Agent plugins, in ``plugins.enabled`` order, and the
    enabled names that are Hermes Agent plugins at all (engine or not). Each plugin's import
    and ``register`` get ``register_timeout`` seconds (0: no limit)."""
    if not enabled:
        return [], set()
    plugins = find_hermes_plugins(home / "plugins", entry_points)
    records: list[EngineRecord] = []
    known: set[str] = set()
    for name in enabled:
        plugin = plugins.get(name)
        if plugin is None:
            continue
        known.add(name)
        if plugin.declared is not None and plugin.declared.distribution.is_hermes:
            continue  # hermes-context's own plugin is for running inside Hermes Agent
        record = _load(plugin, home, register_timeout)
        if record is not None:  # a broken one is logged by the registry like any other
            records.append(record)
    return records, known


class HermesPluginSource:
    """Engines that Hermes Agent plugins named in ``plugins.enabled`` register (folders of
    ``$HERMES_HOME/plugins`` and entry points of ``hermes_agent.plugins``).

    It tells the other sources which enabled names are Hermes Agent plugins, so that the
    general-plugin source does not call them missing: discovery asks it for
    :meth:`names` before the others run.
    """

    name = "Hermes Agent plugins"

    def names(self, context: DiscoveryContext) -> set[str]:
        """The enabled names that are Hermes Agent plugins at all (metadata only)."""
        enabled = context.config.enabled_plugins
        if not enabled:
            return set()
        found = find_hermes_plugins(
            context.config.home / "plugins", context.installed.hermes_agent_plugins
        )
        return {name for name in enabled if name in found}

    def records(self, context: DiscoveryContext) -> list[EngineRecord]:
        records, _ = hermes_plugin_records(
            context.config.enabled_plugins,
            context.config.home,
            context.installed.hermes_agent_plugins,
            context.register_timeout,
        )
        return records


@dataclass(frozen=True)
class NotEnabled:
    """A plugin that is present but not named in ``plugins.enabled``, and may register an
    engine of the name asked for."""

    #: The name to add to ``plugins.enabled``.
    plugin: str
    #: Where it is, as a listing says it.
    source: str


def not_enabled_providers(
    name: str,
    enabled: Sequence[str],
    home: Path,
    installed: InstalledEntryPoints,
) -> list[NotEnabled]:
    """The plugins present but not enabled that may register engine ``name``, read from
    metadata and source text only (nothing is imported): a plugin named ``name``, one whose
    plugin.yaml lists it in ``provides_context_engine``, or one whose code registers an
    engine and mentions ``"name"`` as a string. General plugins (group ``hermes.plugins``)
    count when named ``name``."""
    found: list[NotEnabled] = []
    for plugin in find_hermes_plugins(home / "plugins", installed.hermes_agent_plugins).values():
        if plugin.name in enabled:
            continue
        if plugin.declared is not None and plugin.declared.distribution.is_hermes:
            continue
        folder = _plugin_folder(plugin)
        maybe = (
            plugin.name == name
            or name in plugin.provides
            or (
                folder is not None
                and _mentions(folder, _MARK)
                and (_mentions(folder, f'"{name}"') or _mentions(folder, f"'{name}'"))
            )
        )
        if maybe:
            found.append(NotEnabled(plugin.name, str(plugin.source)))
    for declared in installed.plugins:
        plugin_name = declared.entry_point.name
        if plugin_name == name and plugin_name not in enabled:
            found.append(NotEnabled(plugin_name, f"general plugin {plugin_name}"))
    return found

"""Engine folders loaded as Hermes Agent loads them: ``plugins/context_engine/<name>/``.

Hermes' own loader (``plugins/context_engine/__init__.py::_load_engine_from_dir``)
imports the folder's ``__init__.py`` as a package, then takes, in this order:

1. a ``register(ctx)`` function, called with a context that keeps the engine
   it registers;
2. else a subclass of Hermes' ``agent.context_engine.ContextEngine`` found in
   the module (in ``dir()`` order), instantiated with no arguments.

This host does the same, Hermes' base class being the stand-in where Hermes
Agent is not installed, and also accepts a subclass of
:class:`hermes_core.ContextEngine` (built with the keywords it declares, as
entry-point engines are). The folder names the engine, as in Hermes. Each host
gets an engine of its own: ``register`` is run again, or the class
instantiated again. A plugin built on Hermes' own compressor
(``agent.context_compressor``), where Hermes Agent is not installed, raises
:class:`NeedsHermesAgent`.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterable
from pathlib import Path
from types import ModuleType
from typing import Any

from hermes_core._containment import PluginTimeout, call_with_limit
from hermes_core._engine import ContextEngine
from hermes_core._errors import NeedsHermesAgent
from hermes_core.llm import LLM
from hermes_core.sources._packages import import_package, package_name
from hermes_core.sources.hermes_plugins import _shims as shims
from hermes_core.sources.hermes_plugins._plugin_context import HermesPluginContext
from hermes_core.sources.hermes_plugins._wrapped_engine import HermesPluginEngine

__all__ = ["NeedsHermesAgent", "hermes_module_missing", "load_engine_folder"]

#: Top-level modules of the hermes-agent distribution a plugin may import.
_HERMES_MODULES = frozenset(
    {"agent", "hermes_cli", "plugins", "tools", "gateway", "hermes_state", "hermes_constants"}
)
INSTALL_HERMES = "pip install hermes-agent"


def hermes_module_missing(exc: BaseException) -> str | None:
    """What of Hermes Agent ``exc`` says is missing, when Hermes Agent is not installed: a
    module (``agent.context_compressor``), or a name the stand-in for a module does not
    serve (``agent.context_compressor.salvage_grown_transcript``); None for any other
    failure."""
    if not isinstance(exc, ImportError) or not exc.name:
        return None
    if exc.name.split(".")[0] not in _HERMES_MODULES or shims.hermes_installed():
        return None
    if isinstance(exc, ModuleNotFoundError):
        return exc.name
    # "cannot import name 'x' from 'agent.context_compressor'": a name past the stand-in
    wanted = str(exc).split("'")[1] if str(exc).count("'") >= 2 else ""
    return f"{exc.name}.{wanted}" if wanted else exc.name


def _needs_hermes(exc: BaseException, where: str) -> NeedsHermesAgent | None:
    missing = hermes_module_missing(exc)
    if missing is None:
        return None
    return NeedsHermesAgent(
        f"{where} is built on Hermes Agent's {missing}, which only Hermes Agent provides: "
        f"{INSTALL_HERMES} into this environment to run it here"
    )


def _import(path: Path) -> ModuleType:
    shims.install()
    name = package_name("hermes_plugins.context_engine", path)
    try:
        return import_package(name, path)
    except ImportError as exc:
        needs = _needs_hermes(exc, f"engine folder {path}")
        if needs is not None:
            raise needs from exc
        raise


def _concrete_subclass(value: object, base: type) -> bool:
    """Whether ``value`` is a class deriving from ``base`` (not ``base`` itself) that can be
    instantiated."""
    return (
        inspect.isclass(value)
        and issubclass(value, base)
        and value is not base
        and not inspect.isabstract(value)
    )


def _subclasses(module: ModuleType, base: type) -> list[type]:
    """Concrete subclasses of ``base`` the module holds, in ``dir()`` order (Hermes')."""
    values: list[Any] = [getattr(module, attribute, None) for attribute in dir(module)]
    return [value for value in values if _concrete_subclass(value, base)]


def _ours(module: ModuleType, path: Path) -> type[ContextEngine] | None:
    """The one hermes-context engine class the module exports, None when it exports none;
    ImportError when it exports several (``__all__`` narrows them)."""
    names: Iterable[str] = getattr(module, "__all__", None) or [
        n for n in vars(module) if not n.startswith("_")
    ]
    found: dict[str, type[ContextEngine]] = {}
    for attribute in names:
        value: Any = getattr(module, attribute, None)
        if _concrete_subclass(value, ContextEngine):
            found[attribute] = value
    if len(found) > 1:
        raise ImportError(
            f"{path / '__init__.py'} must export exactly one concrete ContextEngine subclass "
            f"(found: {', '.join(sorted(found))}); list the engine class in __all__"
        )
    return next(iter(found.values()), None)


def _registered(path: Path, register: Callable[[Any], None], home: Path) -> Any:
    # Hermes' engine-folder loader takes whatever register(ctx) hands it: so does this one
    context = HermesPluginContext(path.name, checks_type=False)
    with shims.bound(None, home):
        register(context)
    return context.engines[0] if context.engines else None


class _FolderEngines:
    """Makes one engine per host from a Hermes-style folder, as Hermes' loader would:
    by ``register(ctx)``, else by instantiating its first Hermes engine class that can be;
    either within ``limit`` seconds (0: no limit)."""

    def __init__(
        self, path: Path, module: ModuleType, limit: float = 0, release: str | None = None
    ) -> None:
        self._path = path
        self._module = module
        self._limit = limit
        #: The Hermes release the folder's plugin.yaml admits: the stand-ins follow its rules.
        self._release = release

    def _inner(self, home: Path) -> Any:
        with shims.following(self._release):
            return self._built(home)

    def _built(self, home: Path) -> Any:
        register = getattr(self._module, "register", None)
        if callable(register):
            engine = _registered(self._path, register, home)
            if engine is not None:
                return engine
        from agent.context_engine import ContextEngine as HermesBase

        failures = []
        for cls in _subclasses(self._module, HermesBase):
            try:
                with shims.bound(None, home):
                    return cls()
            except Exception as exc:  # Hermes tries the next class
                failures.append(f"{cls.__name__}(): {type(exc).__name__}: {exc}")
        found = "; ".join(failures) or "no ContextEngine subclass"
        raise ImportError(
            f"{self._path / '__init__.py'} has no register(ctx) that registers an engine, and "
            f"no engine class that can be built ({found})"
        )

    def __call__(self, llm: LLM | None = None, hermes_home: Path | None = None) -> ContextEngine:
        home = hermes_home if hermes_home is not None else self._path
        where = f"engine folder {self._path}"
        try:
            engine = call_with_limit(lambda: self._inner(home), self._limit, where)
        except PluginTimeout as exc:
            raise ImportError(
                f"{where}: register(ctx) or its engine class did not return within "
                f"{self._limit:g} s (plugins.register_timeout_seconds); it was left running "
                "and is not used"
            ) from exc
        except ImportError as exc:
            needs = _needs_hermes(exc, f"engine folder {self._path}")
            if needs is not None:
                raise needs from exc
            raise
        if isinstance(engine, ContextEngine):
            return engine
        return HermesPluginEngine(engine, llm=llm, hermes_home=home, name=self._path.name)


def load_engine_folder(path: Path, limit: float = 0, release: str | None = None) -> Any:
    """What the registry instantiates for the engine folder ``path``: the hermes-context
    engine class it exports, or a factory making one engine per host as Hermes' loader
    would (see the module docstring). Its import gets ``limit`` seconds, and so does each
    ``register(ctx)`` (0: no limit).

    Raises :class:`NeedsHermesAgent`, ImportError for a folder past its limit, or what the
    import raised.
    """
    try:
        module = call_with_limit(lambda: _import(path), limit, f"engine folder {path}")
    except PluginTimeout as exc:
        raise ImportError(
            f"engine folder {path}: its import did not finish within {limit:g} s "
            "(plugins.register_timeout_seconds); it was left running and is not used"
        ) from exc
    if not callable(getattr(module, "register", None)):
        ours = _ours(module, path)
        if ours is not None:
            return ours
    return _FolderEngines(path, module, limit, release)

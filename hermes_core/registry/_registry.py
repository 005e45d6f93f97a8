"""The engine registry: every engine found, deduplicated, and a fresh instance on request."""

from __future__ import annotations

import copy
import dataclasses
import threading
from collections.abc import Callable, Iterable, Iterator
from typing import Any

import pluggy

from hermes_core._containment import reraise_user_interrupt
from hermes_core._engine import ContextEngine
from hermes_core._errors import (
    EngineError,
    EngineIncompatibleError,
    EngineLoadError,
    EngineNeedsHermesError,
    EngineNotFoundError,
    NeedsHermesAgent,
)
from hermes_core._log import logger
from hermes_core.config import HermesConfig
from hermes_core.hooks import _specs as hookspecs
from hermes_core.hooks._markers import PROJECT_NAME
from hermes_core.hooks._signatures import accepted_keywords
from hermes_core.llm._config import AuxiliaryLLMConfig
from hermes_core.registry._compat import HERMES_DISTRIBUTION
from hermes_core.registry._factories import EngineFactory, as_factory, build_engine
from hermes_core.registry._records import EngineRecord, EngineSource, EngineStatus
from hermes_core.registry._validation import validate_engine

__all__ = ["EngineRegistry"]

#: Keywords an engine class or factory may declare to receive from the host.
_FACTORY_KEYWORDS = ("config", "hermes_home", "llm", "hermes_config")
_UNSET = object()
#: Statuses logged as ``context_engine.<status>`` when a record is added.
_UNUSABLE = (EngineStatus.INCOMPATIBLE, EngineStatus.BROKEN, EngineStatus.NEEDS_HERMES_AGENT)


def _plugin_manager() -> pluggy.PluginManager:
    """An empty plugin manager that knows the general-plugin hooks (observers)."""
    manager = pluggy.PluginManager(PROJECT_NAME)
    manager.add_hookspecs(hookspecs.PluginSpec)
    return manager


def _first_line(text: str | None) -> str:
    return (text or "").strip().splitlines()[0] if (text or "").strip() else ""


def _source_key(source: EngineSource) -> str:
    """What ``context.engine_source`` says to choose ``source``."""
    return source.distribution or source.plugin or str(source.path)


def _duplicate_reason(record: EngineRecord, kept: EngineRecord) -> str:
    """Why ``record`` is not used, saying which registration runs instead."""
    runs = f"'{record.name}' is already registered by {kept.source}"
    if record.status in _UNUSABLE:
        return f"{record.status.value} ({_first_line(record.reason)}); {runs}, which is used"
    return runs


class EngineRegistry:
    """Every context engine that is installed, in a deterministic precedence.

    Sources, first wins: (1) entry points in group ``hermes.context_engines``
    (hermes-context's own first, then by distribution name); (2) plugin
    directories, ``plugins.dirs`` in order, then ``$HERMES_HOME/plugins``;
    (3) general plugins named in ``plugins.enabled``, in that order; (4)
    Hermes Agent plugins named in ``plugins.enabled``, in that order (see
    :mod:`hermes_core.sources.hermes_plugins._plugins`). A later registration of a
    taken name is kept in the listing with status ``duplicate`` and logged
    as ``context_engine.duplicate_rejected`` naming both. The user's explicit
    choice comes first: a plugin named in ``plugins.enabled`` takes its name
    from an engine that is merely installed (a distribution's entry point, an
    engine folder; never hermes-context's own ``compressor``), and
    ``context.engine_source`` picks one registration of the selected name by
    its distribution, plugin or folder; the one passed
    over is listed ``shadowed`` and logged as ``context_engine.shadowed``
    naming both, with the line that selects it instead.
    Registrations found ``incompatible`` or ``broken`` (bad metadata) are
    logged as ``context_engine.incompatible`` / ``context_engine.broken``.

    Discovery reads metadata only: no engine module is imported until
    :meth:`create_engine` is asked for that engine. The exceptions are the
    plugins a user enabled by name, whose ``register`` runs at discovery to
    say which engines they register: general plugins, and Hermes Agent
    plugins whose source mentions ``register_context_engine``.
    """

    def __init__(
        self,
        records: Iterable[EngineRecord],
        config: HermesConfig,
        plugin_manager: pluggy.PluginManager | None = None,
        not_enabled: Callable[[str], list[tuple[str, str]]] | None = None,
    ) -> None:
        self.config = config
        self._not_enabled = not_enabled
        #: The general plugins loaded during discovery; observers are called through it.
        self.plugin_manager = plugin_manager or _plugin_manager()
        self._records: list[EngineRecord] = []
        self._active: dict[str, EngineRecord] = {}
        self._factories: dict[str, EngineFactory] = {}
        self._validated: set[tuple[str, type]] = set()
        self._lock = threading.Lock()  # agents may be created from several threads
        self._llm: Any = _UNSET
        for record in records:
            self._add(record)
        choice = config.engine
        selected = self._active.get(choice.name)
        if selected is not None and selected.status is EngineStatus.AVAILABLE:
            selected.status = EngineStatus.SELECTED

    def _add(self, record: EngineRecord) -> None:
        kept = self._active.get(record.name)
        if kept is not None and record.status.usable and self._preferred(record, kept):
            # the user named this one: in plugins.enabled, or in context.engine_source
            self._active[record.name] = record
            self._shadow(kept, record)
        elif kept is None:
            self._active[record.name] = record
            self._warn_unusable(record)
        elif not kept.status.usable and record.status.usable:
            # a registration that cannot run never shadows one that can: the later one runs
            self._active[record.name] = record
            logger.warning(
                "context_engine.unusable_passed_over",
                name=record.name,
                used=str(record.source),
                passed_over=str(kept.source),
                reason=_first_line(kept.reason),
            )
        elif record.status.usable and self._preferred(kept, record):
            self._shadow(record, kept)  # context.engine_source names the one registered first
        else:
            self._warn_unusable(record)
            record.reason = _duplicate_reason(record, kept)
            record.status = EngineStatus.DUPLICATE
            logger.warning(
                "context_engine.duplicate_rejected",
                name=record.name,
                kept=str(kept.source),
                rejected=str(record.source),
            )
        self._records.append(record)

    def _preferred(self, record: EngineRecord, other: EngineRecord) -> bool:
        """Whether the user chose ``record`` over ``other``, whichever was registered
        first: by ``context.engine_source``, or, without that, by naming its plugin in
        ``plugins.enabled`` where ``other`` is merely installed."""
        wanted = self.config.value("context.engine_source")
        if wanted is not None and record.name == self.config.engine.name:
            if other.source.answers_to(wanted):
                return False
            if record.source.answers_to(wanted):
                return True
        if other.source.distribution == HERMES_DISTRIBUTION:
            return False  # the house's own engines (the default) are never taken by a plugin
        return record.source.enabled_by_name and not other.source.enabled_by_name

    def _shadow(self, record: EngineRecord, used: EngineRecord) -> None:
        wanted = self.config.value("context.engine_source")
        why = (
            "context.engine_source names it"
            if wanted is not None and used.source.answers_to(wanted)
            else f"{used.source.plugin} is named in plugins.enabled"
        )
        record.status = EngineStatus.SHADOWED
        record.reason = (
            f"'{record.name}' is taken by {used.source} ({why}); select this one with "
            f"context.engine_source: {_source_key(record.source)}"
        )
        logger.warning(
            "context_engine.shadowed",
            name=record.name,
            used=str(used.source),
            shadowed=str(record.source),
            why=why,
            choose_other=f"context.engine_source: {_source_key(record.source)}",
        )

    @staticmethod
    def _warn_unusable(record: EngineRecord) -> None:
        if record.status in _UNUSABLE:
            logger.warning(
                f"context_engine.{record.status.value.replace('-', '_')}",
                name=record.name,
                source=str(record.source),
                reason=record.reason,
            )

    # ------------------------------------------------------------------ listing

    def __iter__(self) -> Iterator[EngineRecord]:
        return iter(self._records)

    def __len__(self) -> int:
        return len(self._records)

    @property
    def records(self) -> tuple[EngineRecord, ...]:
        """Every registration found, duplicates included, in precedence order."""
        return tuple(self._records)

    def get(self, name: str) -> EngineRecord | None:
        """The registration that owns ``name`` (the first by precedence), or None."""
        return self._active.get(name)

    def failed_plugins(self) -> list[str]:
        """The plugins (general or Hermes Agent) that failed to load, each as
        ``<source> (<first line of its error>)``: any of them may be what would have
        registered an engine that is missing."""
        return [
            f"{record.source} ({_first_line(record.reason)})"
            for record in self._records
            if record.status is EngineStatus.BROKEN
            and record.source.kind in ("hermes_plugin", "general_plugin")
        ]

    def not_enabled_plugins(self, name: str) -> list[tuple[str, str]]:
        """The plugins present but not in ``plugins.enabled`` that may register engine
        ``name``, as ``(plugin name, where it is)``: read from metadata and source text
        when discovery was asked (nothing is imported); empty otherwise."""
        return self._not_enabled(name) if self._not_enabled is not None else []

    def not_enabled_hint(self, name: str) -> str | None:
        """What to tell a user who selected ``name`` that only a plugin present but not
        enabled may register, or None when there is no such plugin."""
        present = self.not_enabled_plugins(name)
        if not present:
            return None
        plugins = ", ".join(f"'{plugin}' ({where})" for plugin, where in present)
        return (
            f"{plugins} may register it, and plugins.enabled does not name it. Add it there "
            f"(plugins:\n  enabled: [{present[0][0]}]), or run: hermes-context select {name}"
        )

    def names(self) -> list[str]:
        """The engine names that can be activated (neither incompatible nor broken)."""
        return [name for name, record in self._active.items() if record.status.usable]

    # ------------------------------------------------------------------ instances

    def create_engine(self, name: str) -> ContextEngine:
        """A new, validated instance of engine ``name``; each call returns a separate object.

        Raises :class:`~hermes_core.EngineNotFoundError`,
        :class:`~hermes_core.EngineIncompatibleError`,
        :class:`~hermes_core.EngineLoadError` (import, factory or constructor
        failed) or :class:`~hermes_core.EngineValidationError`; the record is
        then marked ``broken`` with the reason.
        """
        record = self._active.get(name)
        if record is None:
            hint = self.not_enabled_hint(name)
            if hint is not None:
                raise EngineNotFoundError(name, f"context engine '{name}' is not enabled: {hint}")
            known = ", ".join(self.names()) or "none"
            raise EngineNotFoundError(
                name,
                f"context engine '{name}' is not installed (installed engines: {known}); "
                "install the distribution that provides it or select one of these",
            )
        source = str(record.source)
        if record.status is EngineStatus.INCOMPATIBLE:
            raise EngineIncompatibleError(
                name, f"context engine '{name}' ({source}) {record.reason}", source=source
            )
        if record.status is EngineStatus.NEEDS_HERMES_AGENT:
            raise EngineNeedsHermesError(
                name, f"context engine '{name}' ({source}): {record.reason}", source=source
            )
        if record.status is EngineStatus.BROKEN:
            raise EngineLoadError(
                name,
                f"context engine '{name}' ({source}) is broken: {record.reason}",
                source=source,
            )
        try:
            engine = self._instantiate(record)
            key = (name, type(engine))
            if key not in self._validated:
                validate_engine(engine, name=name, source=source)
                with self._lock:
                    self._validated.add(key)
        except EngineNeedsHermesError as exc:
            record.status, record.reason = EngineStatus.NEEDS_HERMES_AGENT, str(exc)
            raise
        except EngineError as exc:
            record.status, record.reason = EngineStatus.BROKEN, str(exc)
            raise
        return engine

    def _instantiate(self, record: EngineRecord) -> ContextEngine:
        source = str(record.source)
        stage = "import"
        try:
            with self._lock:
                factory = self._factories.get(record.name)
                if factory is None:
                    assert record.load is not None, "an available record always has a loader"
                    factory = as_factory(record.load())
                    self._factories[record.name] = factory
            stage = "construction"
            return build_engine(factory, self._factory_context(factory))
        except NeedsHermesAgent as exc:
            raise EngineNeedsHermesError(
                record.name, f"context engine '{record.name}' ({source}): {exc}", source=source
            ) from exc
        except BaseException as exc:
            reraise_user_interrupt(exc)
            raise EngineLoadError(
                record.name,
                f"context engine '{record.name}' ({source}) failed during {stage}: "
                f"{type(exc).__name__}: {exc}",
                source=source,
            ) from exc

    def _factory_context(self, factory: EngineFactory) -> dict[str, Any]:
        """The keywords ``factory`` declares among ``config``, ``hermes_home``, ``llm`` and
        ``hermes_config`` (the loaded configuration with its file path, text and strictness,
        its data a private copy)."""
        wanted = accepted_keywords(factory, dict.fromkeys(_FACTORY_KEYWORDS))
        context: dict[str, Any] = {}
        if "config" in wanted:
            context["config"] = copy.deepcopy(dict(self.config.data))
        if "hermes_home" in wanted:
            context["hermes_home"] = self.config.home
        if "llm" in wanted:
            context["llm"] = self.auxiliary_llm()
        if "hermes_config" in wanted:
            context["hermes_config"] = dataclasses.replace(
                self.config, data=copy.deepcopy(dict(self.config.data))
            )
        return context

    def with_config(self, config: HermesConfig) -> EngineRegistry:
        """The same registrations (nothing is discovered again), creating engines with
        ``config``: for instance :meth:`HermesConfig.isolated` for a check."""
        clone = copy.copy(self)
        clone.config = config
        clone._llm = _UNSET
        return clone

    def use_llm(self, client: Any) -> None:
        """Hand engines created from now on ``client`` as their ``llm`` (an object with
        ``complete(messages, *, max_tokens=None, ...)``, e.g. an adapter over the host
        agent's own LLM), instead of the client ``auxiliary.compression`` describes;
        None gives them none."""
        with self._lock:
            self._llm = client

    def auxiliary_llm(self) -> Any:
        """The ``auxiliary.compression`` chat client, built once; None when none is configured."""
        with self._lock:
            if self._llm is _UNSET:
                settings = AuxiliaryLLMConfig.from_config(self.config.data, "compression")
                if settings is None:
                    self._llm = None
                else:
                    from hermes_core.llm._client import ChatClient

                    self._llm = ChatClient(settings, env=self.config.env)
            return self._llm

    def mark_selected(self, name: str) -> None:
        """Show ``name`` as the selected engine in listings (used after a fallback)."""
        for record in self._active.values():
            if record.status is EngineStatus.SELECTED:
                record.status = EngineStatus.AVAILABLE
        chosen = self._active.get(name)
        if chosen is not None and chosen.status is EngineStatus.AVAILABLE:
            chosen.status = EngineStatus.SELECTED

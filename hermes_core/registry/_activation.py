"""The single-select gate: the configured engine, or the default with a warning."""

from __future__ import annotations

from dataclasses import dataclass

from hermes_core._engine import ContextEngine
from hermes_core._errors import EngineError, EngineNotFoundError, EngineValidationError
from hermes_core._log import logger
from hermes_core._names import DEFAULT_ENGINE, ENGINE_NAME_RULE
from hermes_core.registry._records import EngineRecord
from hermes_core.registry._registry import EngineRegistry

__all__ = ["Activation", "activate"]


@dataclass(frozen=True)
class Activation:
    """The outcome of selecting an engine for one agent.

    ``requested`` is what the configuration asked for; ``engine`` is a new
    instance of ``record``; ``fallback`` holds the error that made the host
    use the default engine instead, or None.
    """

    engine: ContextEngine
    record: EngineRecord
    requested: str
    fallback: EngineError | None = None


def activate(registry: EngineRegistry) -> Activation:
    """Create the engine selected by the registry's configuration, for one agent.

    Engines are never auto-activated: only the selected name is imported.
    When it is missing, incompatible, broken, raises while constructed, or
    fails signature validation, ``context_engine.fallback`` is logged with the
    reason and the default ``compressor`` is used; in strict mode
    (``context.strict``, ``HERMES_STRICT_PLUGINS=1``) the error is raised.
    The default engine failing is always raised: there is nothing to fall
    back to.
    """
    config = registry.config
    choice = config.engine
    origin = config.locate("context.engine") if choice.from_file else choice.origin
    try:
        if not choice.valid:
            raise EngineNotFoundError(
                choice.name, f"{origin} is {choice.name!r}, expected {ENGINE_NAME_RULE}"
            )
        _check_source(registry, choice.name)
        try:
            engine = registry.create_engine(choice.name)
        except EngineNotFoundError as exc:
            known = ", ".join(registry.names()) or "none"
            failed = registry.failed_plugins()
            if failed:
                raise EngineNotFoundError(
                    choice.name,
                    f"{origin} selects context engine '{choice.name}', which no source "
                    f"registers; these plugins failed to load and may be what provides it: "
                    f"{'; '.join(failed)}. Fix or reinstall the plugin, or set context.engine "
                    f"to one of: {known}",
                ) from exc
            hint = registry.not_enabled_hint(choice.name)
            if hint is not None:
                raise EngineNotFoundError(
                    choice.name,
                    f"{origin} selects context engine '{choice.name}', which is not enabled: "
                    f"{hint}",
                ) from exc
            raise EngineNotFoundError(
                choice.name,
                f"{origin} selects context engine '{choice.name}', which is not installed; "
                f"expected one of: {known}. Install the distribution that provides "
                f"'{choice.name}', or set context.engine to an installed engine",
            ) from exc
        record = registry.get(choice.name)
        assert record is not None
        return Activation(engine, record, choice.name)
    except EngineError as exc:
        if config.strict or choice.name == DEFAULT_ENGINE:
            raise
        fields = {}
        if isinstance(exc, EngineValidationError):
            fields = {"method": exc.method, "argument": exc.argument}
        logger.warning(
            "context_engine.fallback",
            requested=choice.name,
            selected_by=origin,
            reason=exc.reason,
            source=exc.source or None,
            used=DEFAULT_ENGINE,
            error=str(exc),
            **fields,
        )
        engine = registry.create_engine(DEFAULT_ENGINE)
        registry.mark_selected(DEFAULT_ENGINE)
        record = registry.get(DEFAULT_ENGINE)
        assert record is not None
        return Activation(engine, record, choice.name, fallback=exc)


def source_problem(registry: EngineRegistry, name: str) -> str | None:
    """Why ``context.engine_source`` keeps engine ``name`` from running (it names a source
    that registers no ``name``: the user asked for one registration, not any), or None."""
    config = registry.config
    wanted = config.value("context.engine_source")
    record = registry.get(name)
    if wanted is None or (record is not None and record.source.answers_to(wanted)):
        return None
    offered = [str(r.source) for r in registry.records if r.name == name]
    return (
        f"{config.locate('context.engine_source')} is {wanted!r}, which registers no engine "
        f"'{name}'; registrations of '{name}': {', '.join(offered) or 'none'}. Set it to one "
        "of their distributions, plugins or folders, or remove it"
    )


def _check_source(registry: EngineRegistry, name: str) -> None:
    """Raise :class:`~hermes_core.EngineNotFoundError` for a :func:`source_problem`."""
    problem = source_problem(registry, name)
    if problem is not None:
        raise EngineNotFoundError(name, problem)

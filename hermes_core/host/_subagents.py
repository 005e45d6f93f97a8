"""What the host accepts from an engine's ``clone_for_agent`` for a sub-agent's host,
and the activation that host serves."""

from __future__ import annotations

from dataclasses import replace

from hermes_core._engine import ContextEngine
from hermes_core._log import logger
from hermes_core.host._bounded import contained
from hermes_core.host._engine_calls import FAILED, EngineCalls
from hermes_core.registry import Activation, EngineRegistry, activate

__all__ = ["clone_problem", "subagent_activation"]


def clone_problem(clone: object, engine: ContextEngine, name: str) -> str | None:
    """What makes ``clone`` unfit to serve another agent in place of ``engine`` (registered as
    ``name``), as text; None when it is fit: a different engine object reporting ``name``."""
    if not isinstance(clone, ContextEngine):
        return f"clone_for_agent() gave {type(clone).__name__}, not an engine (or failed)"
    if clone is engine:
        return "clone_for_agent() gave back the engine itself, which would be shared"
    reported = contained("name", lambda: clone.name, None, lambda *_: None)
    if reported != name:
        return f"clone_for_agent() gave an engine named {reported!r}, not {name!r}"
    return None


def subagent_activation(
    calls: EngineCalls, activation: Activation, registry: EngineRegistry
) -> Activation:
    """The activation a sub-agent's host serves: the engine's clone, bounded, when it is
    fit (:func:`clone_problem`); otherwise a new engine of the configured name
    (``context_engine.clone_failed``). The sub-agent never shares this agent's engine."""
    clone = calls.bounded("clone_for_agent", calls.methods["clone_for_agent"], FAILED)
    problem = clone_problem(clone, calls.engine, calls.name)
    if problem is None:
        return replace(activation, engine=clone)
    logger.warning(
        "context_engine.clone_failed",
        engine=calls.name,
        problem=problem,
        effect="the sub-agent gets a new engine",
    )
    return activate(registry)

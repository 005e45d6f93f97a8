"""From a registered object to a fresh engine instance for one agent.

A registration is a ``ContextEngine`` subclass, a factory (any callable
returning an engine), or an engine instance. Each agent gets its own
instance: classes and factories are called again, instances give their
``clone_for_agent()`` (a deep copy unless the engine says otherwise, as in
Hermes Agent 0.22), so one agent's ``update_model`` can never change another's
engine.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from typing import Any

from hermes_core._engine import ContextEngine
from hermes_core.hooks._signatures import call_with_accepted

__all__ = ["EngineFactory", "as_factory", "build_engine", "describe_registration"]

#: Builds one engine; receives the keyword context it accepts (``config``, ``hermes_home``).
EngineFactory = Callable[..., ContextEngine]


def describe_registration(obj: object) -> str:
    """How a registered object reads in a message."""
    if inspect.isclass(obj):
        return f"class {obj.__module__}.{obj.__qualname__}"
    return f"{type(obj).__name__} {obj!r}"[:120]


def as_factory(obj: object) -> EngineFactory:
    """Wrap a registered object as a factory; raises TypeError for anything else."""
    if isinstance(obj, ContextEngine):
        template = obj

        def clone(**_: Any) -> ContextEngine:
            engine = template.clone_for_agent()
            if engine is template:
                raise TypeError(
                    f"{describe_registration(template)}: clone_for_agent() returned the "
                    "registered instance itself, which every agent would share; return a "
                    "new engine (the default returns copy.deepcopy(self))"
                )
            return engine

        return clone
    if inspect.isclass(obj):
        if not issubclass(obj, ContextEngine):
            raise TypeError(
                f"{describe_registration(obj)} is not a subclass of hermes_core.ContextEngine"
            )
        if inspect.isabstract(obj):
            missing = ", ".join(sorted(getattr(obj, "__abstractmethods__", ())))
            raise TypeError(
                f"{describe_registration(obj)} does not implement the required member(s): {missing}"
            )
    elif not callable(obj):
        raise TypeError(
            f"{describe_registration(obj)} is neither a ContextEngine subclass, "
            "an engine instance nor a factory"
        )
    return obj


def build_engine(factory: EngineFactory, context: Mapping[str, Any]) -> ContextEngine:
    """Call ``factory`` with the keywords of ``context`` it accepts; check what it returns."""
    engine = call_with_accepted(factory, offered=context)
    if not isinstance(engine, ContextEngine):
        raise TypeError(
            f"factory {describe_registration(factory)} returned "
            f"{type(engine).__name__}, not a hermes_core.ContextEngine"
        )
    return engine

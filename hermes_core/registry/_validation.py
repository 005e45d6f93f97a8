"""Checking an engine against the hookspecs before it is used.

One check per spec-named method, read from the hook's declaration
(:data:`hermes_core.hooks.HOOKS`): every parameter the method requires must
be a parameter of the spec (positional or keyword-only alike), and the method
must accept the arguments the host always passes, in the host's order. The
result is an :class:`~hermes_core.EngineValidationError` naming the method and
the argument.

Not pluggy's check: engines mark nothing, so a plugin manager sees none of
their methods, and pluggy's check, even when made to see them, lets through a
method that cannot take what the host passes and an unknown keyword-only
parameter, and names the plugin by its ``id()`` (``bench_validation.py``).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

from hermes_core._engine import ContextEngine
from hermes_core._errors import EngineValidationError
from hermes_core.hooks._specs import (
    ENGINE_HOOKS,
    HOOKS,
    HOST_OFFERED_KEYWORDS,
    HOST_REQUIRED_ARGUMENTS,
)

__all__ = ["validate_engine"]

_P = inspect.Parameter
_SPEC_PARAMETERS = {
    hook: frozenset(
        HOST_REQUIRED_ARGUMENTS[hook] + HOOKS[hook].required_keywords + HOST_OFFERED_KEYWORDS[hook]
    )
    for hook in ENGINE_HOOKS
}


def _problem(hook: str, method: Callable[..., Any]) -> tuple[str, str] | None:
    """The first (argument, explanation) by which ``method`` does not fit spec ``hook``."""
    try:
        signature = inspect.signature(method)
    except (TypeError, ValueError):
        return None
    spec = _SPEC_PARAMETERS[hook]
    params = signature.parameters
    for parameter in params.values():
        required = parameter.default is _P.empty and parameter.kind not in (
            _P.VAR_POSITIONAL,
            _P.VAR_KEYWORD,
        )
        if required and parameter.name not in spec:
            return parameter.name, (
                f"requires argument '{parameter.name}', which the hookspec does not have "
                f"(hookspec arguments: {', '.join(sorted(spec)) or 'none'}); "
                "give it a default or remove it"
            )
    kinds = {p.kind for p in params.values()}
    takes_any = _P.VAR_KEYWORD in kinds or _P.VAR_POSITIONAL in kinds
    positional = HOST_REQUIRED_ARGUMENTS[hook]
    by_name = HOOKS[hook].required_keywords
    for argument in (*positional, *by_name):
        if argument not in params and not takes_any:
            return argument, f"does not accept argument '{argument}', which the host always passes"
    try:
        signature.bind(*([None] * len(positional)), **dict.fromkeys(by_name))
    except TypeError as exc:
        first = positional[0] if positional else "(none)"
        return first, f"cannot be called as the host calls it ({exc})"
    return None


def validate_engine(engine: ContextEngine, *, name: str, source: str = "") -> None:
    """Raise :class:`~hermes_core.EngineValidationError` if ``engine`` does not fit the hookspecs.

    Checks each spec-named method (see the module docstring), then that
    ``engine.name`` equals ``name``, the name it was registered and selected by.
    """
    for hook in ENGINE_HOOKS:
        method = getattr(engine, hook, None)
        if not callable(method):
            continue
        problem = _problem(hook, method)
        if problem is not None:
            argument, why = problem
            raise EngineValidationError(
                name,
                f"context engine '{name}' ({source}): method {hook}() {why}",
                method=hook,
                argument=argument,
                source=source,
            )
    try:
        actual = engine.name
    except Exception as exc:
        actual = f"<{type(exc).__name__}: {exc}>"
    if actual != name:
        raise EngineValidationError(
            name,
            f"context engine registered as '{name}' ({source}) reports name {actual!r}; "
            f"its 'name' property must return '{name}'",
            method="name",
            argument="",
            source=source,
        )

"""Checking an engine against the hookspecs before it is used.

pluggy is the authority: the engine is registered with a plugin manager that
knows :class:`~hermes_core.hookspecs.ContextEngineSpec`, treating every spec
method the engine has as a hook implementation, so pluggy's own check runs
(every required parameter must be a parameter of the spec). Two checks pluggy
does not make follow: keyword-only required parameters must be in the spec
too, and every argument the host always passes must be accepted. The result
is an :class:`~hermes_core.EngineValidationError` naming the method and the
argument, never a bare ``PluginValidationError``.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any, cast

import pluggy

from hermes_core.engine import ContextEngine
from hermes_core.errors import EngineValidationError
from hermes_core.hookspecs import HOST_REQUIRED_ARGUMENTS, ContextEngineSpec
from hermes_core.markers import PROJECT_NAME

__all__ = ["validate_engine"]

_P = inspect.Parameter


def _spec_parameters(hook: str) -> frozenset[str]:
    function = getattr(ContextEngineSpec, hook)
    return frozenset(list(inspect.signature(function).parameters)[1:])


_SPEC_PARAMETERS = {hook: _spec_parameters(hook) for hook in HOST_REQUIRED_ARGUMENTS}


class _EngineValidator(pluggy.PluginManager):
    """A plugin manager that treats an engine's spec-named methods as hook implementations."""

    def __init__(self) -> None:
        super().__init__(PROJECT_NAME)
        self.add_hookspecs(ContextEngineSpec)

    def parse_hookimpl_opts(self, plugin: Any, name: str) -> pluggy.HookimplOpts | None:
        # Look the name up on the class first, so properties never run here.
        if name not in _SPEC_PARAMETERS or not callable(getattr(type(plugin), name, None)):
            return None
        return cast(pluggy.HookimplOpts, {})


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
    for argument in positional:
        if argument not in params and not takes_any:
            return argument, f"does not accept argument '{argument}', which the host always passes"
    try:
        signature.bind(*([None] * len(positional)))
    except TypeError as exc:
        first = positional[0] if positional else "(none)"
        return first, f"cannot be called as the host calls it ({exc})"
    return None


def validate_engine(engine: ContextEngine, *, name: str, source: str = "") -> None:
    """Raise :class:`~hermes_core.EngineValidationError` if ``engine`` does not fit the hookspecs.

    Checks, in order: pluggy's registration check, then the host's calling
    convention (see :mod:`hermes_core.hookspecs`), then that ``engine.name``
    equals ``name``, the name it was registered and selected by.
    """
    validator = _EngineValidator()
    pluggy_error: pluggy.PluginValidationError | None = None
    try:
        validator.register(engine, name=f"engine:{name}")
    except pluggy.PluginValidationError as exc:
        pluggy_error = exc
    for hook in HOST_REQUIRED_ARGUMENTS:
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
    if pluggy_error is not None:  # pluggy found something the checks above did not name
        raise EngineValidationError(
            name,
            f"context engine '{name}' ({source}) does not fit the hookspecs: {pluggy_error}",
            method="?",
            argument="?",
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

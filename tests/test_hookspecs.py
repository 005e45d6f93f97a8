"""The hookspecs mirror the ContextEngine ABC and document every hook."""

from __future__ import annotations

import inspect

import pluggy
import pytest

from hermes_core import ContextEngine, hookimpl
from hermes_core.hookspecs import HOST_REQUIRED_ARGUMENTS, ContextEngineSpec, PluginSpec

ENGINE_METHODS = sorted(
    name
    for name, member in vars(ContextEngine).items()
    if callable(member) and not name.startswith("_")
)


def parameters(function: object) -> list[str]:
    return [
        p.name
        for p in inspect.signature(function).parameters.values()  # type: ignore[arg-type]
        if p.kind not in (p.VAR_KEYWORD, p.VAR_POSITIONAL) and p.name != "self"
    ]


def test_there_is_one_hookspec_per_engine_method() -> None:
    specs = sorted(n for n in vars(ContextEngineSpec) if not n.startswith("_"))
    assert specs == ENGINE_METHODS
    assert sorted(HOST_REQUIRED_ARGUMENTS) == ENGINE_METHODS


@pytest.mark.parametrize("method", ENGINE_METHODS)
def test_each_hookspec_has_the_engine_methods_argument_names(method: str) -> None:
    engine_args = parameters(getattr(ContextEngine, method))
    spec_args = parameters(getattr(ContextEngineSpec, method))
    assert spec_args[: len(engine_args)] == engine_args
    assert set(HOST_REQUIRED_ARGUMENTS[method]) <= set(engine_args)


@pytest.mark.parametrize("method", [*ENGINE_METHODS, "register_context_engines"])
def test_each_hookspec_is_documented(method: str) -> None:
    spec = getattr(ContextEngineSpec, method, None) or getattr(PluginSpec, method)
    assert len(inspect.getdoc(spec) or "") > 40


def test_pluggy_accepts_the_specs_and_rejects_an_impl_with_an_unknown_argument() -> None:
    manager = pluggy.PluginManager("hermes")
    manager.add_hookspecs(PluginSpec)

    class Bad:
        @hookimpl
        def register_context_engines(self, register, extra):  # type: ignore[no-untyped-def]
            pass

    with pytest.raises(pluggy.PluginValidationError, match="extra"):
        manager.register(Bad())

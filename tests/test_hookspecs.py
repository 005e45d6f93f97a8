"""The hookspecs are the one declaration of the contract: the base class, the host and the
validator follow them."""

from __future__ import annotations

import inspect
from typing import Any

import pluggy
import pytest

from hermes_core import ContextEngine, EngineValidationError, hookimpl
from hermes_core.hooks._specs import (
    ENGINE_HOOKS,
    HOOKS,
    HOST_OFFERED_KEYWORDS,
    HOST_REQUIRED_ARGUMENTS,
    ContextEngineSpec,
    PluginSpec,
)
from hermes_core.registry._validation import validate_engine
from hermes_core.testing import host_for
from tests.host_engines import Recording

#: Methods an engine calls on itself, which the host never calls: not hooks.
HELPERS = {"copy_model_figures"}


def test_every_method_of_the_base_class_is_a_hook_of_the_spec_or_a_helper() -> None:
    methods = {
        name
        for name, member in vars(ContextEngine).items()
        if callable(member) and not name.startswith("_")
    }
    assert methods - HELPERS == set(ENGINE_HOOKS)
    assert methods >= HELPERS and not HELPERS & set(ENGINE_HOOKS)


@pytest.mark.parametrize("hook", ENGINE_HOOKS)
def test_the_base_class_default_accepts_what_the_host_always_passes(hook: str) -> None:
    default = inspect.signature(getattr(ContextEngine, hook))
    by_name = dict.fromkeys(HOOKS[hook].required_keywords)
    default.bind(None, *[None] * len(HOST_REQUIRED_ARGUMENTS[hook]), **by_name)  # or raises


class TakesEverything(Recording):
    """Each observed hook accepts any keyword, so it hears every one the host offers."""

    @property
    def name(self) -> str:
        return "everything"

    def compress(self, messages: Any, **kwargs: Any) -> Any:  # type: ignore[override]
        self._record("compress", **kwargs)
        return messages[-1:]

    def on_turn_complete(self, messages: Any, usage: Any = None, **kwargs: Any) -> None:
        self._record("on_turn_complete", usage=usage, **kwargs)

    def on_session_start(self, session_id: str, **kwargs: Any) -> None:
        self._record("on_session_start", **kwargs)


def test_an_engine_that_takes_any_keyword_hears_exactly_the_offered_ones() -> None:
    host = host_for(TakesEverything)
    engine: Any = host.engine
    host.update_model("m", 1000)
    host.start_session(
        "s", platform="cli", conversation_id="c", boundary_reason="r", old_session_id="o"
    )
    conversation = [
        {"role": "user", "content": "x" * 400},
        {"role": "assistant", "content": "y" * 400},
        {"role": "user", "content": "z"},
    ]
    host.compress(conversation, current_tokens=10, focus_topic="t", force=True, memory_context="m")
    host.turn_complete(
        conversation,
        {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
        turn_id="1",
        task_id="2",
        api_call_count=3,
        interrupted=False,
        failed=False,
        turn_exit_reason="done",
    )
    for hook in ("compress", "on_turn_complete", "on_session_start"):
        ((_, keywords),) = engine.calls_to(hook)
        assert set(keywords) == set(HOST_OFFERED_KEYWORDS[hook]), hook


class RequiresMore(Recording):
    @property
    def name(self) -> str:
        return "requires-more"

    def get_status(self, *, verbose: bool) -> dict[str, Any]:  # type: ignore[override]
        return {}


def test_a_keyword_only_parameter_outside_the_spec_rejects_the_engine() -> None:
    with pytest.raises(EngineValidationError) as raised:
        validate_engine(RequiresMore(), name="requires-more", source="test")
    assert (raised.value.method, raised.value.argument) == ("get_status", "verbose")


def test_pluggy_accepts_the_plugin_spec_and_rejects_an_impl_with_an_unknown_argument() -> None:
    manager = pluggy.PluginManager("hermes")
    manager.add_hookspecs(PluginSpec)
    manager.add_hookspecs(ContextEngineSpec)

    class Bad:
        @hookimpl
        def register_context_engines(self, register: Any, extra: Any) -> Any:
            pass

    with pytest.raises(pluggy.PluginValidationError, match="extra"):
        manager.register(Bad())

"""Each engine hook is declared once (``hermes_core.HOOKS``); the base class, the host and
the Hermes forwarding classes keep to the declarations, and a hook declared with nothing
special works on the host from its declaration alone."""

from __future__ import annotations

import inspect
import json
import threading
from collections.abc import Callable
from typing import Any

import pytest

from hermes_core import HOOKS, ContextEngine, ContextHost, Hook
from hermes_core.hermes_agent._adapter import _Hosted
from hermes_core.hooks._record import BACKGROUND, BOUNDED, INLINE, engine_hook
from hermes_core.host._generic import generic_method
from hermes_core.sources.hermes_plugins._hermes_abc import HermesContextEngine
from hermes_core.sources.hermes_plugins._wrapped_engine import HermesPluginEngine
from hermes_core.testing import host_for

MESSAGES = [
    {"role": "system", "content": "You are terse."},
    *[{"role": r, "content": f"{r} {n} " * 40} for n in range(3) for r in ("user", "assistant")],
    {"role": "user", "content": "and now?"},
]
#: A value for each argument a hook always takes, by name.
SAMPLES: dict[str, Any] = {
    "usage": {"prompt_tokens": 10, "completion_tokens": 2, "total_tokens": 12},
    "prompt_tokens": 10,
    "rough_tokens": 10,
    "messages": MESSAGES,
    "request_messages": MESSAGES,
    "session_id": "s",
    "model": "m",
    "context_length": 100_000,
    "name": "probe",
    "args": {},
    "phase": "compress",
    "default_message": "Compacting the conversation...",
}
PROBE_TOOL = {"name": "probe", "description": "d", "parameters": {"type": "object"}}
ANSWERS: dict[str, Callable[[tuple[Any, ...]], Any]] = {
    "should_compress": lambda args: False,
    "should_compress_info": lambda args: (False, None),
    "should_compress_preflight": lambda args: False,
    "should_defer_preflight_to_real_usage": lambda args: False,
    "has_content_to_compress": lambda args: True,
    "compress": lambda args: args[0][:1] + args[0][-1:],
    "get_tool_schemas": lambda args: [PROBE_TOOL],
    "handle_tool_call": lambda args: '{"ok": true}',
    "get_status": lambda args: {},
}


class Hooked(ContextEngine):
    """Answers every hook; a hook named in ``block`` waits for ``release``, one named in
    ``fail`` raises."""

    name = "hooked"

    def __init__(self) -> None:
        self.block: set[str] = set()
        self.fail: set[str] = set()
        self.entered = threading.Event()
        self.release = threading.Event()

    def act(self, hook: str, args: tuple[Any, ...]) -> Any:
        if hook in self.block:
            self.entered.set()
            self.release.wait(60)
        if hook in self.fail:
            raise RuntimeError(f"{hook} failed on purpose")
        answer = ANSWERS.get(hook)
        return answer(args) if answer is not None else None


def _answering(hook: str) -> Callable[..., Any]:
    def method(self: Hooked, *args: Any, **kwargs: Any) -> Any:
        return self.act(hook, args)

    return method


for _hook in HOOKS:
    setattr(Hooked, _hook, _answering(_hook))
Hooked.__abstractmethods__ = frozenset()

LIMITS = {"compression": {"hook_timeout_seconds": 0.2, "context_timeout_seconds": 0.2}}


def _host() -> tuple[ContextHost, Hooked]:
    host = host_for(Hooked, config=LIMITS)
    engine = host.engine
    assert isinstance(engine, Hooked)
    host.tool_schemas()  # the tool dispatcher knows the probe tool
    return host, engine


def _arguments(hook: Hook) -> tuple[list[Any], dict[str, Any]]:
    """What a caller passes for ``hook``: by position, and by keyword where it must."""
    return [SAMPLES[a] for a in hook.arguments], {k: SAMPLES[k] for k in hook.required_keywords}


def _call(host: ContextHost, hook: Hook) -> Any:
    positional, keywords = _arguments(hook)
    if hook.call == BACKGROUND:  # started once the prompt nears the threshold
        host.engine.threshold_tokens = host.engine.last_prompt_tokens = 1_000
    return getattr(host, hook.host_method)(*positional, **keywords)


# ---------------------------------------------------------------- the base class


@pytest.mark.parametrize("hook", HOOKS.values(), ids=list(HOOKS))
def test_the_base_class_has_each_hook_abstract_exactly_when_declared_required(hook: Hook) -> None:
    method = getattr(ContextEngine, hook.name)
    assert (hook.name in ContextEngine.__abstractmethods__) == hook.required
    positional, keywords = _arguments(hook)
    inspect.signature(method).bind(None, *positional, **keywords)  # what the host passes


def test_the_declarations_are_the_specs() -> None:
    from hermes_core.hooks._specs import ContextEngineSpec

    for hook in HOOKS.values():
        spec = getattr(ContextEngineSpec, hook.name)
        assert spec.hermes_spec is not None and hook.description == inspect.cleandoc(spec.__doc__)
        assert list(hook.signature.parameters) == list(inspect.signature(spec).parameters)[1:]


# ---------------------------------------------------------------- the host


@pytest.mark.parametrize("hook", HOOKS.values(), ids=list(HOOKS))
def test_the_host_method_takes_what_the_hook_always_takes_by_position(hook: Hook) -> None:
    method = getattr(ContextHost, hook.host_method)
    positional, keywords = _arguments(hook)
    inspect.signature(method).bind(None, *positional, **keywords)


@pytest.mark.parametrize("hook", HOOKS.values(), ids=list(HOOKS))
def test_the_host_calls_each_hook_inline_or_bounded_as_declared(hook: Hook) -> None:
    host, engine = _host()
    engine.block.add(hook.name)
    done = threading.Event()

    def agent() -> None:
        _call(host, hook)
        done.set()

    caller = threading.Thread(target=agent, daemon=True)
    caller.start()
    assert engine.entered.wait(30), f"{hook.host_method} did not reach {hook.name}"
    if hook.call == INLINE:
        caller.join(1.0)  # an inline call cannot return before the engine does (0.2 s bound)
        assert not done.is_set(), f"{hook.host_method} returned without waiting: bounded?"
        engine.release.set()
        caller.join(30)
        assert done.is_set()
    else:
        caller.join(30)  # a bounded call returns while the engine is still held
        assert done.is_set() and not engine.release.is_set(), hook.host_method
        engine.release.set()
    host.close()


def _failing(hook: Hook, how: str) -> Any:
    host, engine = _host()
    (engine.fail if how == "raise" else engine.block).add(hook.name)
    try:
        return _call(host, hook)
    finally:
        engine.release.set()
        host.close()


@pytest.mark.parametrize(
    "hook", [h for h in HOOKS.values() if h.call != INLINE], ids=lambda h: h.name
)
def test_a_late_engine_and_a_failing_one_leave_the_caller_with_the_declared_fallback(
    hook: Hook,
) -> None:
    raised, late = _failing(hook, "raise"), _failing(hook, "late")
    if hook.host_method == "status":
        assert "engine_status_error" in raised and "engine_status_error" in late
    elif hook.host_method == "handle_tool_call":
        assert "probe" in json.loads(raised)["error"] and "probe" in json.loads(late)["error"]
    elif hook.host_method in ("compress", "select_context"):
        assert raised == late == MESSAGES  # "the messages as they were", "the original request"
    elif hook.host_method == "prune_tool_results":
        assert raised == late == (MESSAGES, 0)  # "the messages as they were, and 0"
    elif hook.call == BACKGROUND:  # never waited for: the agent goes on, told it started
        assert raised is late is True
    elif hook.host_method == "for_subagent":  # "a host over a new engine of the same name"
        for sub in (raised, late):
            assert isinstance(sub, ContextHost) and isinstance(sub.engine, Hooked)
            assert sub.engine_name == "hooked"
            sub.close()
    else:
        assert raised == late == hook.fallback_value


@pytest.mark.parametrize(
    "hook", [h for h in HOOKS.values() if h.call == INLINE], ids=lambda h: h.name
)
def test_an_inline_hook_that_raises_leaves_the_caller_with_the_declared_fallback(
    hook: Hook,
) -> None:
    expected = SAMPLES["default_message"] if hook.fallback == "the default message" else None
    assert _failing(hook, "raise") == (expected or hook.fallback_value)


def test_the_config_text_lists_the_bounded_and_the_inline_host_methods() -> None:
    from hermes_core.config._schema import rule_for

    text = rule_for("compression.hook_timeout_seconds").doc
    for hook in HOOKS.values():
        if hook.call in (INLINE, BOUNDED):
            assert hook.host_method in text


# ---------------------------------------------------------------- a hook declared anew


class Spec:
    @engine_hook(host="example_hook", call=BOUNDED, fallback="an empty list", fallback_value=[])
    def on_example_hook(self, messages: list[dict[str, Any]], seconds: float = 0.0) -> list[str]:
        """The agent has been idle (always: ``messages``; ``seconds`` when accepted)."""
        raise NotImplementedError


EXAMPLE: Hook = Spec.on_example_hook.hermes_hook  # type: ignore[attr-defined]


class Example(Hooked):
    def __init__(self) -> None:
        super().__init__()
        self.seen: list[Any] = []

    def on_example_hook(self, messages: list[dict[str, Any]], seconds: float = 0.0) -> list[str]:
        self.act("on_example_hook", (messages,))
        messages.clear()  # the host's copy, never the caller's
        self.seen.append(seconds)
        return ["idle"]


def test_a_hook_declared_with_nothing_special_runs_on_the_host_from_its_declaration() -> None:
    example = generic_method(EXAMPLE)
    host = host_for(Example, config=LIMITS)
    engine = host.engine
    assert isinstance(engine, Example)
    conversation = [dict(m) for m in MESSAGES]
    assert example(host, conversation, seconds=5.0) == ["idle"]
    assert conversation == MESSAGES and engine.seen == [5.0]
    engine.fail.add("on_example_hook")
    assert example(host, conversation) == [] and host.counters.hook_failures == 1
    engine.fail.clear()
    engine.block.add("on_example_hook")
    assert example(host, conversation) == [] and host.counters.hook_timeouts == 1
    engine.release.set()
    with pytest.raises(TypeError):
        example(host)  # the caller's mistake is the caller's
    host.close()


def test_the_host_gives_a_generic_method_only_where_it_has_none() -> None:
    from hermes_core.host._generic import add_generic_methods

    class Host:
        def compress(self) -> str:
            return "own"

    add_generic_methods(Host, {"compress": HOOKS["compress"], "on_example_hook": EXAMPLE})
    assert Host().compress() == "own"
    assert Host.example_hook.__doc__ == EXAMPLE.description  # type: ignore[attr-defined]


# ---------------------------------------------------------------- the Hermes classes

HERMES = [h for h in HOOKS.values() if h.hermes_base]


def test_the_stand_in_for_hermes_base_class_has_exactly_the_hooks_declared_on_it() -> None:
    own = {n for n, v in vars(HermesContextEngine).items() if callable(v) and n[0] != "_"}
    assert own == {h.name for h in HERMES}
    assert {h.name for h in HOOKS.values() if h.hermes} <= own  # every hook Hermes calls


#: Hooks the adapter answers itself: a clone is a new adapter, not a host's answer.
ADAPTER_OWN = ("clone_for_agent",)


@pytest.mark.parametrize(
    "hook", [h for h in HERMES if h.name not in ADAPTER_OWN], ids=lambda h: h.name
)
def test_the_adapter_inside_hermes_forwards_each_hook_to_the_declared_host_method(
    hook: Hook,
) -> None:
    calls: list[str] = []

    class Spy:
        def __getattr__(self, name: str) -> Any:
            def record(*args: Any, **kwargs: Any) -> list[Any]:
                calls.append(name)
                return []

            return record

    adapter = _Hosted.__new__(_Hosted)
    adapter._host = Spy()  # type: ignore[assignment]
    positional, keywords = _arguments(hook)
    getattr(adapter, hook.name)(*positional, **keywords)
    assert calls == [hook.host_method]


def _recording(calls: list[str], name: str) -> Callable[..., Any]:
    def record(self: Any, *args: Any, **kwargs: Any) -> Any:
        calls.append(name)
        return [] if name != "clone_for_agent" else type(self)()

    return record


@pytest.mark.parametrize("hook", HERMES, ids=lambda h: h.name)
def test_a_wrapped_hermes_engine_gets_each_hook_it_defines_by_its_own_name(hook: Hook) -> None:
    calls: list[str] = []
    inner = type(
        "Inner",
        (HermesContextEngine,),
        {"name": "inner", **{h.name: _recording(calls, h.name) for h in HOOKS.values()}},
    )
    inner.__abstractmethods__ = frozenset()  # type: ignore[attr-defined]
    wrapper = HermesPluginEngine(inner())
    positional, keywords = _arguments(hook)
    getattr(wrapper, hook.name)(*positional, **keywords)
    assert calls == [hook.name]
    wrapper.close()


LATER = [h for h in HERMES if h.hermes_since != "0.19" and h.name != "clone_for_agent"]


@pytest.mark.parametrize("hook", LATER, ids=lambda h: h.name)
def test_a_hook_a_hermes_engine_leaves_at_hermes_default_is_never_called_on_our_host(
    hook: Hook,
) -> None:
    calls: list[str] = []

    class Written019:  # the hooks of Hermes 0.19 only, none of its base class's later ones
        name = "old"

        def __getattr__(self, name: str) -> Any:
            if name in {h.name for h in LATER}:
                raise AttributeError(name)  # an engine written for Hermes 0.19

            def record(*args: Any, **kwargs: Any) -> list[Any]:
                calls.append(name)
                return []

            return record

    wrapper = HermesPluginEngine(Written019())
    assert getattr(type(wrapper), hook.name) is getattr(ContextEngine, hook.name)
    assert hook.name not in vars(wrapper)  # our base class's default, never forwarded
    positional, keywords = _arguments(hook)
    getattr(wrapper, hook.name)(*positional, **keywords)
    assert hook.name not in calls
    wrapper.close()

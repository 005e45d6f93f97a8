"""What the host answers when the engine raises, hook by hook, is what ``hookspecs``
declares (and the docs' hook table shows): the declaration and the behaviour are one."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from hermes_core import ContextEngine, ContextHost
from hermes_core.hooks._specs import HOOKS
from hermes_core.testing import host_for


def _raise(*args: Any, **kwargs: Any) -> Any:
    raise RuntimeError("engine bug")


def _failing_engine() -> type[ContextEngine]:
    """An engine that raises in every hook but ``name`` (and ``clone_for_agent``, which has
    tests of its own)."""
    body: dict[str, Any] = {
        hook.name: _raise
        for hook in HOOKS.values()
        if hook.name != "clone_for_agent" and callable(getattr(ContextEngine, hook.name, None))
    }
    body["name"] = property(lambda self: "failing")
    return type("Failing", (ContextEngine,), body)


Failing = _failing_engine()


def _messages() -> list[dict[str, Any]]:
    return [
        {"role": "system", "content": "be brief"},
        {"role": "user", "content": "hello"},
        {"role": "assistant", "content": "hi"},
    ]


#: host method -> how a test calls it
CALLS: dict[str, Callable[[ContextHost], Any]] = {
    "record_usage": lambda h: h.record_usage({"prompt_tokens": 10, "completion_tokens": 2}),
    "should_compress": lambda h: h.should_compress(1_000_000),
    "should_compress_info": lambda h: h.should_compress_info(1_000_000),
    "should_compress_preflight": lambda h: h.should_compress_preflight(_messages()),
    "should_defer_preflight_to_real_usage": lambda h: h.should_defer_preflight_to_real_usage(9),
    "has_content_to_compress": lambda h: h.has_content_to_compress(_messages()),
    "start_session": lambda h: h.start_session("s1"),
    "end_session": lambda h: h.end_session("s1", _messages()),
    "reset_session": lambda h: h.reset_session(session_id="s1"),
    "update_model": lambda h: h.update_model("m", 100_000),
    "tool_schemas": lambda h: h.tool_schemas(),
    "turn_complete": lambda h: h.turn_complete(_messages()),
}

#: Hooks whose fallback is stated in words, each checked by its own test below.
DESCRIBED = {
    "compress",
    "select_context",
    "prune_tool_results_only",
    "handle_tool_call",
    "get_status",
    "get_automatic_compaction_status_message",
    "clone_for_agent",
    "close",
    "prepare_compress",  # tests/test_host_preparation.py
}


@pytest.fixture
def host() -> Any:
    made = host_for(Failing, config={"compression": {"hook_timeout_seconds": 5}})
    yield made
    made.close()


def test_every_hook_is_covered_here() -> None:
    assert {h.host_method for h in HOOKS.values() if h.name not in DESCRIBED} == set(CALLS)


@pytest.mark.parametrize(
    "hook", [h for h in HOOKS.values() if h.name not in DESCRIBED], ids=lambda h: h.name
)
def test_a_raising_engine_gets_the_declared_fallback(host: ContextHost, hook: Any) -> None:
    assert CALLS[hook.host_method](host) == hook.fallback_value
    assert host.counters.hook_failures >= 1  # the failure was seen, not skipped


def test_select_context_falls_back_to_the_original_request(host: ContextHost) -> None:
    request = _messages()
    assert host.select_context(request, budget_tokens=100) == _messages()


def test_compress_falls_back_to_the_messages_as_they_were(host: ContextHost) -> None:
    assert host.compress(_messages()) == _messages()


def test_prune_falls_back_to_the_very_list_and_zero(host: ContextHost) -> None:
    messages = _messages()
    pruned, count = host.prune_tool_results(messages)
    assert pruned is messages and count == 0


def test_the_status_message_falls_back_to_the_default(host: ContextHost) -> None:
    assert host.compaction_status_message("compress", "Compacting...") == "Compacting..."

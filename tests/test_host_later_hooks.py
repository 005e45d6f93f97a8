"""The hooks Hermes Agent 0.22's base class added, on our host: a prune of old tool results
is kept only when it is a smaller valid list; a status line is the engine's, or nothing, or
the default; a sub-agent gets an engine of its own, never this agent's."""

from __future__ import annotations

from typing import Any

import pytest

from hermes_core import ContextEngine, ContextHost, EngineNotFoundError
from hermes_core.testing import capture_events, host_for

TOOL_CALL = {
    "role": "assistant",
    "content": None,
    "tool_calls": [
        {"id": "c1", "type": "function", "function": {"name": "read", "arguments": "{}"}}
    ],
}
MESSAGES: list[dict[str, Any]] = [
    {"role": "system", "content": "You are terse."},
    {"role": "user", "content": "read the log"},
    TOOL_CALL,
    {"role": "tool", "tool_call_id": "c1", "content": "line\n" * 2_000},
    {"role": "assistant", "content": "It is long."},
    {"role": "user", "content": "and now?"},
]


def pruned(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{**m, "content": "[pruned]"} if m.get("role") == "tool" else m for m in messages]


class Plain(ContextEngine):
    """Keeps every later hook at the base class's default."""

    name = "plain"

    def update_from_response(self, usage: dict[str, Any]) -> None:
        pass

    def should_compress(self, prompt_tokens: int | None = None) -> bool:
        return False

    def compress(self, messages: Any, current_tokens: Any = None, focus_topic: Any = None) -> Any:
        return messages


class Pruning(Plain):
    """Answers prunes with ``answer(messages)``; records what it was given."""

    name = "pruning"

    def __init__(self) -> None:
        self.answer: Any = lambda messages: (pruned(messages), 1)
        self.seen: list[dict[str, Any]] = []

    def prune_tool_results_only(
        self, messages: list[dict[str, Any]], current_tokens: int | None = None, **kwargs: Any
    ) -> tuple[list[dict[str, Any]], int]:
        self.seen.append({"current_tokens": current_tokens, **kwargs})
        messages[0]["content"] = "changed by the engine"  # its copy, never the caller's
        result: tuple[list[dict[str, Any]], int] = self.answer(messages)
        return result


def _conversation() -> list[dict[str, Any]]:
    return [dict(m) for m in MESSAGES]


# ---------------------------------------------------------------- prune_tool_results


def test_an_engine_that_keeps_the_default_prune_is_never_called_and_the_list_comes_back() -> None:
    calls: list[int] = []

    class Counting(Plain):
        def __getattribute__(self, name: str) -> Any:
            if name == "prune_tool_results_only":
                calls.append(1)
            return super().__getattribute__(name)

    with host_for(Counting, name="plain") as host:
        calls.clear()
        conversation = _conversation()
        result = host.prune_tool_results(conversation, 50_000)
        assert result[0] is conversation and result[1] == 0
        assert calls == []


def test_a_smaller_valid_prune_is_kept_counted_and_the_callers_list_is_untouched() -> None:
    with host_for(Pruning) as host, capture_events() as events:
        host.start_session("s1")
        conversation = _conversation()
        messages, count = host.prune_tool_results(conversation, 50_000)
        assert count == 1 and messages is not conversation
        assert messages[3]["content"] == "[pruned]"
        assert conversation == MESSAGES  # the engine changed its copy only
        engine = host.engine
        assert isinstance(engine, Pruning)
        assert engine.seen == [{"current_tokens": 50_000, "session_id": "s1"}]
        assert host.status()["prunes"] == 1
        [event] = events.named("context_engine.pruned")
        assert event["messages_pruned"] == 1 and event["after_tokens"] < event["before_tokens"]


def test_a_prune_copies_each_message_once_and_hands_back_messages_the_caller_owns() -> None:
    with host_for(Pruning) as host:
        host.start_session("s1")
        engine = host.engine
        assert isinstance(engine, Pruning)
        engine.answer = lambda m: (m, 0)
        conversation = _conversation()
        host.prune_tool_results(conversation, 50_000)
        copied = host._handed.copied
        longer = [*conversation, {"role": "user", "content": "more"}]
        host.prune_tool_results(longer, 50_000)
        assert host._handed.copied == copied + 1  # asked after every response: what is new
        engine.answer = lambda m: (pruned(m), 1)
        messages, count = host.prune_tool_results(longer, 50_000)
        assert count == 1 and messages[3]["content"] == "[pruned]"
        messages[1]["content"] = "edited by the agent"  # its own: the host's copies stay
        again, _ = host.prune_tool_results(longer, 50_000)
        assert again[1]["content"] == "read the log"


def test_a_prune_the_host_refuses_is_logged_with_what_is_wrong() -> None:
    with host_for(Pruning) as host, capture_events() as events:
        engine = host.engine
        assert isinstance(engine, Pruning)
        engine.answer = lambda m: (pruned(m), -1)
        host.prune_tool_results(_conversation())
        (event,) = events.named("context_engine.invalid_result")
        assert event["method"] == "prune_tool_results_only"
        assert "not a whole number" in event["problem"]


@pytest.mark.parametrize(
    "answer",
    [
        lambda m: (m, 0),
        lambda m: (pruned(m), 0),
        lambda m: (m, 3),  # the very list handed in: nothing was pruned
    ],
    ids=["same-list-0", "new-list-0", "same-list-count"],
)
def test_a_prune_that_pruned_nothing_gives_back_the_callers_own_list(answer: Any) -> None:
    with host_for(Pruning) as host:
        engine = host.engine
        assert isinstance(engine, Pruning)
        engine.answer = answer
        conversation = _conversation()
        messages, count = host.prune_tool_results(conversation)
        assert messages is conversation and count == 0
        assert host.status()["prune_fallbacks"] == 0


@pytest.mark.parametrize(
    "answer",
    [
        lambda m: pruned(m),  # not a pair
        lambda m: (pruned(m), -1),
        lambda m: (pruned(m), True),
        lambda m: (pruned(m), "1"),
        lambda m: ([], 1),
        lambda m: ([x for x in pruned(m) if x is not m[2]], 1),  # an orphaned tool result
        lambda m: ([*m, {"role": "user", "content": "more"}], 1),  # grew
        lambda m: ([*pruned(m)[:-1], {"role": "wizard", "content": "?"}], 1),
    ],
    ids=["no-pair", "negative", "bool", "text", "empty", "orphan", "larger", "bad-role"],
)
def test_a_prune_the_host_cannot_trust_leaves_the_list_as_it_was(answer: Any) -> None:
    with host_for(Pruning) as host, capture_events() as events:
        engine = host.engine
        assert isinstance(engine, Pruning)
        engine.answer = answer
        conversation = _conversation()
        messages, count = host.prune_tool_results(conversation)
        assert messages is conversation and count == 0
        assert host.status()["prune_fallbacks"] == 1
        assert events.named("context_engine.invalid_result")


def test_a_prune_that_raises_leaves_the_list_as_it_was() -> None:
    def fail(messages: Any) -> Any:
        raise RuntimeError("no")

    with host_for(Pruning) as host:
        engine = host.engine
        assert isinstance(engine, Pruning)
        engine.answer = fail
        conversation = _conversation()
        assert host.prune_tool_results(conversation) == (conversation, 0)
        assert host.status()["prune_fallbacks"] == 1 and host.status()["hook_failures"] == 1


# ---------------------------------------------------------------- compaction_status_message


class Talking(Plain):
    name = "talking"

    def __init__(self) -> None:
        self.say: Any = lambda phase, default: f"{phase}: {default}"

    def get_automatic_compaction_status_message(
        self, *, phase: str, default_message: str, **context: Any
    ) -> str | None:
        result: str | None = self.say(phase, default_message)
        return result


def test_the_default_status_line_is_the_hosts_unless_the_engine_keeps_passes_silent() -> None:
    with host_for(Plain) as host:
        assert host.compaction_status_message("compress", "Compacting...") == "Compacting..."
        host.engine.emit_automatic_compaction_status = False
        assert host.compaction_status_message("compress", "Compacting...") is None


@pytest.mark.parametrize(
    ("say", "expected"),
    [
        (lambda phase, default: f"{phase}: {default}", "idle: Compacting..."),
        (lambda phase, default: None, None),
        (lambda phase, default: "   ", None),
        (lambda phase, default: 42, "Compacting..."),
        (lambda phase, default: 1 / 0, "Compacting..."),
        (
            lambda phase, default: "key sk-proj-abcdefghijklmnopqrstuvwxyz0123456789",
            "key [REDACTED]",
        ),
    ],
    ids=["own", "none", "blank", "not-text", "raises", "secret"],
)
def test_a_status_line_is_the_engines_own_or_nothing_or_the_default(
    say: Any, expected: str | None
) -> None:
    with host_for(Talking) as host:
        engine = host.engine
        assert isinstance(engine, Talking)
        engine.say = say
        said = host.compaction_status_message("idle", "Compacting...", approx_tokens=9)
        if expected is not None and "REDACTED" in expected:
            assert said is not None and "sk-proj-abcdef" not in said
        else:
            assert said == expected


def test_a_silent_engine_is_not_asked_for_a_status_line() -> None:
    with host_for(Talking) as host:
        engine = host.engine
        assert isinstance(engine, Talking)
        engine.emit_automatic_compaction_status = False
        engine.say = lambda phase, default: "asked anyway"
        assert host.compaction_status_message("preflight", "Compacting...") is None


# ---------------------------------------------------------------- for_subagent


class Cloning(Plain):
    name = "cloning"

    def __init__(self) -> None:
        self.clone_answer: Any = None
        self.clones = 0

    def clone_for_agent(self) -> Any:
        self.clones += 1
        if self.clone_answer is not None:
            return self.clone_answer(self)
        twin = Cloning()
        twin.threshold_percent = self.threshold_percent
        return twin


def test_a_subagents_host_runs_the_engines_clone_with_the_same_model() -> None:
    with host_for(Cloning) as host:
        host.update_model("m", 100_000)
        sub = host.for_subagent()
        try:
            engine = host.engine
            assert isinstance(engine, Cloning) and engine.clones == 1
            assert isinstance(sub.engine, Cloning) and sub.engine is not engine
            assert sub.context_window == 100_000 and sub.engine.context_length > 0
            sub.update_model("small", 32_000)  # the sub-agent's switch is its own
            assert host.context_window == 100_000 and engine.context_length != 32_000
        finally:
            sub.close()


@pytest.mark.parametrize(
    "answer",
    [lambda engine: engine, lambda engine: "engine", lambda engine: Plain()],
    ids=["itself", "not-an-engine", "another-name"],
)
def test_a_clone_that_would_share_or_mislead_gives_the_subagent_a_new_engine(
    answer: Any,
) -> None:
    with host_for(Cloning) as host, capture_events() as events:
        engine = host.engine
        assert isinstance(engine, Cloning)
        engine.clone_answer = answer
        sub = host.for_subagent()
        try:
            assert isinstance(sub.engine, Cloning) and sub.engine is not engine
            assert sub.engine_name == "cloning"
            [event] = events.named("context_engine.clone_failed")
            assert "clone_for_agent()" in event["problem"]
        finally:
            sub.close()


def test_a_registered_instance_gives_each_agent_its_clone_and_refuses_to_be_shared() -> None:
    template = Cloning()
    first, second = host_for(template), host_for(template)
    try:
        assert first.engine is not template and second.engine is not first.engine
        assert template.clones >= 2
    finally:
        first.close()
        second.close()
    template.clone_answer = lambda engine: engine
    # never the one instance every agent shares: the engine is broken (here, with no
    # compressor installed beside it, the host cannot be built at all)
    with capture_events() as events, pytest.raises(EngineNotFoundError):
        host_for(template, name="cloning")
    [fallback] = events.named("context_engine.fallback")
    assert fallback["reason"] == "broken"
    assert "returned the registered instance itself" in fallback["error"]


def test_a_host_built_for_a_subagent_is_a_context_host() -> None:
    with host_for(Plain) as host:
        sub = host.for_subagent()  # the default clone: a deep copy
        try:
            assert isinstance(sub, ContextHost) and sub.engine is not host.engine
            assert sub.engine_name == "plain"
        finally:
            sub.close()

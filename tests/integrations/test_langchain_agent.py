"""ContextEngineMiddleware in a real ``create_agent`` agent (langchain, langgraph,
langchain-openai's ChatOpenAI) against the fake OpenAI server on 127.0.0.1."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

import pytest
from langchain.agents import create_agent
from langchain_core.messages import AIMessage, HumanMessage
from langchain_openai import ChatOpenAI
from pydantic import SecretStr

from hermes_core import ContextHost
from hermes_core.integrations.langchain import ContextEngineMiddleware
from hermes_core.testing import EventCapture, FakeOpenAI, host_for
from tests.host_engines import Preflight, Recording, Selecting
from tests.integrations.conftest import load_example

WINDOW = 8_000
TURNS = 40

example = load_example("langchain_agent")


def _whole_history_tokens(server: FakeOpenAI) -> int:
    """What one request holding every message the agent ever sent would weigh."""
    sent = {json.dumps(m) for r in server.agent_requests() for m in r["body"]["messages"]}
    return sum(len(m) for m in sent) // 4


def _question_request(server: FakeOpenAI) -> dict[str, Any]:
    """The model request made for the last user turn (the question about turn 5)."""
    asked = [r for r in server.agent_requests() if "What was the vault code" in r["text"]]
    return asked[0]


def test_lcm_keeps_every_request_in_the_window_and_brings_back_turn_5(
    openai_server: FakeOpenAI, make_host: Callable[..., ContextHost]
) -> None:
    host = make_host("lcm")
    agent, context = example.build_agent(openai_server.url, host, WINDOW)
    example.converse(agent, TURNS)
    requests = openai_server.agent_requests()
    assert len(requests) == 2 * TURNS  # a tool call, then the answer, each turn
    assert max(r["prompt_tokens"] for r in requests) < WINDOW
    assert _whole_history_tokens(openai_server) > 1.5 * WINDOW  # without the engine: no fit
    assert "ZEBRA-4471" in _question_request(openai_server)["text"]  # server-side
    status = context.status()
    assert status["passes_compressed"] >= 1 and status["passes_no_gain"] == 0
    assert status["hook_failures"] == 0 and status["select_context_fallbacks"] == 0
    # turn_complete stored every message the agent holds, tool calls and results included
    assert status["stored_messages"] >= 4 * TURNS
    # record_usage: the engine saw the model's real usage, as the server reported it
    assert status["last_prompt_tokens"] == requests[-1]["prompt_tokens"]


def test_compaction_replaces_the_state_and_keeps_the_ids_of_what_it_kept(
    openai_server: FakeOpenAI, make_host: Callable[..., ContextHost]
) -> None:
    host = make_host("compressor")
    agent, context = example.build_agent(openai_server.url, host, WINDOW)
    config = {"configurable": {"thread_id": "t"}}
    state: dict[str, Any] = {"messages": []}
    before: dict[str, Any] = {}
    for turn in range(TURNS):
        before = {m.id: m for m in state["messages"]}
        ask = HumanMessage(f"Turn {turn}: look up record k{turn}.", id=f"ask-{turn}")
        state = agent.invoke({"messages": [*state["messages"], ask]}, config)
    assert context.status()["passes_compressed"] >= 2
    assert len(state["messages"]) < 4 * TURNS  # the state itself was compacted
    ids = [m.id for m in state["messages"]]
    assert len(ids) == len(set(ids))
    kept = [m for m in state["messages"] if m.id in before]
    assert kept and all(m is before[m.id] or m == before[m.id] for m in kept)
    requests = openai_server.agent_requests()
    assert max(r["prompt_tokens"] for r in requests) < WINDOW


def test_the_engines_tools_are_offered_to_the_model_and_answer_from_the_store(
    openai_server: FakeOpenAI, make_host: Callable[..., ContextHost]
) -> None:
    host = make_host("lcm")
    agent, context = example.build_agent(openai_server.url, host, WINDOW)
    example.converse(agent, 6)
    offered = {t["function"]["name"] for t in openai_server.agent_requests()[0]["body"]["tools"]}
    assert {"lookup", "lcm_grep", "lcm_describe", "lcm_expand"} <= offered
    grep = next(t for t in context.tools if t.name == "lcm_grep")
    found = json.loads(grep.invoke({"query": "ZEBRA"}))
    assert "ZEBRA-4471" in json.dumps(found)


def test_an_async_agent_gets_the_same_hooks(
    openai_server: FakeOpenAI, make_host: Callable[..., ContextHost]
) -> None:
    host = make_host("lcm")
    model = ChatOpenAI(model="test-model", base_url=openai_server.url, api_key=SecretStr("sk-test"))
    context = ContextEngineMiddleware(host, context_length=WINDOW)
    agent = create_agent(model, tools=[example.lookup], middleware=[context])

    async def converse() -> None:
        messages: list[Any] = []
        for turn in range(TURNS):
            ask = f"Turn {turn}: look up record k{turn}."
            if turn == 2:
                ask += " The vault code is ZEBRA-4471."
            if turn == TURNS - 1:
                ask = "What was the vault code?"
            state = await agent.ainvoke({"messages": [*messages, ("user", ask)]})
            messages = state["messages"]

    asyncio.run(converse())
    assert "ZEBRA-4471" in _question_request(openai_server)["text"]
    assert max(r["prompt_tokens"] for r in openai_server.agent_requests()) < WINDOW
    assert context.status()["stored_messages"] >= 4 * TURNS - 2


def test_each_thread_is_a_session_of_its_own(
    openai_server: FakeOpenAI, make_host: Callable[..., ContextHost]
) -> None:
    host = make_host("lcm")
    agent, context = example.build_agent(openai_server.url, host, WINDOW)
    agent.invoke(
        {"messages": [("user", "The vault code is ZEBRA-4471.")]},
        {"configurable": {"thread_id": "a"}},
    )
    agent.invoke({"messages": [("user", "hello")]}, {"configurable": {"thread_id": "b"}})
    grep = next(t for t in context.tools if t.name == "lcm_grep")
    assert "ZEBRA-4471" in host.handle_tool_call("lcm_grep", {"query": "ZEBRA"}, session_id="a")
    assert "ZEBRA-4471" not in host.handle_tool_call("lcm_grep", {"query": "ZEBRA"}, session_id="b")
    assert grep is not None


def test_a_model_without_a_known_window_is_an_error_naming_what_to_set(
    openai_server: FakeOpenAI, make_host: Callable[..., ContextHost]
) -> None:
    host = make_host("lcm")
    model = ChatOpenAI(model="test-model", base_url=openai_server.url, api_key=SecretStr("sk-test"))
    agent = create_agent(model, tools=[], middleware=[ContextEngineMiddleware(host)])
    with pytest.raises(ValueError, match=r"pass context_length=.*model\.context_length"):
        agent.invoke({"messages": [("user", "hi")]})
    assert openai_server.agent_requests() == []  # nothing sent past an unknown window


def test_the_window_in_config_yaml_is_used(
    openai_server: FakeOpenAI, make_host: Callable[..., ContextHost]
) -> None:
    host = make_host("lcm", model={"context_length": 12_000})
    model = ChatOpenAI(model="test-model", base_url=openai_server.url, api_key=SecretStr("sk-test"))
    agent = create_agent(model, tools=[], middleware=[ContextEngineMiddleware(host)])
    agent.invoke({"messages": [("user", "hi")]})
    assert host.context_window == 12_000


def test_an_engine_that_raises_leaves_the_agent_what_it_had(openai_server: FakeOpenAI) -> None:
    host = host_for(Selecting)
    host.engine.raises = RuntimeError("engine bug")  # type: ignore[attr-defined]
    agent, context = example.build_agent(openai_server.url, host, WINDOW)
    state = example.converse(agent, 4)
    assert isinstance(state["messages"][-1], AIMessage)  # every turn answered
    status = context.status()
    assert status["select_context_fallbacks"] == 8  # each model call, with what it had
    assert status["hook_failures"] >= 8 + 4  # and each turn_complete
    assert len(openai_server.agent_requests()) == 8


def test_a_compaction_that_drops_the_message_being_answered_is_skipped(
    openai_server: FakeOpenAI, logs: EventCapture
) -> None:
    host = host_for(Recording)  # keeps the last two user messages: never a tool result
    agent, _ = example.build_agent(openai_server.url, host, WINDOW)
    state = example.converse(agent, 3)  # without the check, a turn would never end
    assert isinstance(state["messages"][-1], AIMessage)
    assert len(openai_server.agent_requests()) == 6
    assert logs.named("context_engine.compaction_dropped_current")


def test_below_the_threshold_the_engines_preflight_gets_its_one_pass(
    openai_server: FakeOpenAI,
) -> None:
    # Hermes 0.22 asks should_compress_preflight every turn below the threshold, and runs
    # exactly one pass on yes: so does the middleware
    host = host_for(Preflight)
    agent, _ = example.build_agent(openai_server.url, host, WINDOW)
    example.converse(agent, 5)
    engine = host.engine
    assert engine.calls_to("should_compress_preflight")  # type: ignore[attr-defined]
    assert len(engine.calls_to("compress")) == 1  # type: ignore[attr-defined]
    assert host.status()["passes"] == 1

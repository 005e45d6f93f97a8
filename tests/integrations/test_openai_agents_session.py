"""ContextEngineSession, its input filter, hooks and tools in real Agents SDK runs
(``Runner.run``) against the fake OpenAI server on 127.0.0.1: the Responses API and
Chat Completions."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from agents import Agent, Runner

from hermes_core import ContextHost
from hermes_core.integrations.openai_agents import ContextEngineSession
from hermes_core.testing import FakeOpenAI, host_for
from tests.host_engines import Preflight
from tests.integrations.conftest import load_example

WINDOW = 8_000
TURNS = 40

example = load_example("openai_agents_agent")


def _question_request(server: FakeOpenAI) -> dict[str, Any]:
    asked = [r for r in server.agent_requests() if "What was the vault code" in r["text"]]
    return asked[0]


def _whole_history_tokens(server: FakeOpenAI) -> int:
    sent = set()
    for request in server.agent_requests():
        items = request["body"].get("input") or request["body"].get("messages") or []
        sent |= {json.dumps(i, sort_keys=True) for i in items}
    return sum(len(i) for i in sent) // 4


@pytest.mark.parametrize("api", ["responses", "chat"])
def test_lcm_keeps_every_request_in_the_window_and_brings_back_turn_5(
    api: str, openai_server: FakeOpenAI, make_host: Callable[..., ContextHost]
) -> None:
    host = make_host("lcm")
    agent, session = example.build_agent(openai_server.url, host, WINDOW, api)
    asyncio.run(example.converse(agent, session, TURNS))
    requests = openai_server.agent_requests()
    assert {r["path"] for r in requests} == {
        "/v1/responses" if api == "responses" else "/v1/chat/completions"
    }
    assert len(requests) == 2 * TURNS  # a tool call, then the answer, each turn
    assert max(r["prompt_tokens"] for r in requests) < WINDOW
    assert _whole_history_tokens(openai_server) > 1.5 * WINDOW  # without the engine: no fit
    assert "ZEBRA-4471" in _question_request(openai_server)["text"]  # server-side
    status = host.status()
    assert status["passes_compressed"] >= 1 and status["passes_no_gain"] == 0
    assert status["hook_failures"] == 0 and status["select_context_fallbacks"] == 0
    assert status["stored_messages"] >= 4 * TURNS  # every turn, tool calls included
    assert status["last_prompt_tokens"] == requests[-1]["prompt_tokens"]  # real usage


def test_the_compressor_compacts_the_stored_items_and_keeps_the_window(
    openai_server: FakeOpenAI, make_host: Callable[..., ContextHost]
) -> None:
    host = make_host("compressor")
    agent, session = example.build_agent(openai_server.url, host, WINDOW)
    asyncio.run(example.converse(agent, session, TURNS))
    items = asyncio.run(session.get_items())
    assert len(items) < 4 * TURNS  # the session's history was compacted
    assert host.status()["passes_compressed"] >= 3
    assert max(r["prompt_tokens"] for r in openai_server.agent_requests()) < WINDOW


def test_without_the_hooks_the_history_size_stands_in_for_usage(
    openai_server: FakeOpenAI, make_host: Callable[..., ContextHost]
) -> None:
    host = make_host("compressor")
    agent, session = example.build_agent(openai_server.url, host, WINDOW)
    config = session.run_config(tracing_disabled=True)

    async def converse() -> None:
        for turn in range(TURNS):
            await Runner.run(
                agent, f"Turn {turn}: look up k{turn}.", session=session, run_config=config
            )

    asyncio.run(converse())
    assert host.status()["passes_compressed"] >= 3  # the compressor was never left blocked
    assert max(r["prompt_tokens"] for r in openai_server.agent_requests()) < WINDOW


def test_items_and_the_engines_store_survive_a_restart(
    openai_server: FakeOpenAI, tmp_path: Path
) -> None:
    env = {"HERMES_HOME": str(tmp_path / "home"), "HERMES_LCM_EMBEDDING_MODEL": "none"}
    config = {"context": {"engine": "lcm"}}
    with ContextHost.from_config(config, env=env) as host:
        agent, session = example.build_agent(openai_server.url, host, WINDOW)
        asyncio.run(example.converse(agent, session, 12))
        before = asyncio.run(session.get_items())
    with ContextHost.from_config(config, env=env) as host:  # a new process, the same home
        again = ContextEngineSession("example-session", host, context_length=WINDOW)
        assert asyncio.run(again.get_items()) == before
        grep = next(t for t in again.tools if t.name == "lcm_grep")
        found = asyncio.run(grep.on_invoke_tool(None, json.dumps({"query": "ZEBRA"})))
        assert "ZEBRA-4471" in found


def test_the_engines_tools_are_offered_to_the_model(
    openai_server: FakeOpenAI, make_host: Callable[..., ContextHost]
) -> None:
    host = make_host("lcm")
    agent, session = example.build_agent(openai_server.url, host, WINDOW)
    asyncio.run(example.converse(agent, session, 2))
    offered = {t["name"] for t in openai_server.agent_requests()[0]["body"]["tools"]}
    assert {"lookup", "lcm_grep", "lcm_describe", "lcm_expand"} <= offered


def test_clearing_the_session_clears_its_items_and_resets_the_engines_context(
    openai_server: FakeOpenAI, make_host: Callable[..., ContextHost]
) -> None:
    host = make_host("lcm")
    agent, session = example.build_agent(openai_server.url, host, WINDOW)

    async def converse() -> None:
        await example.converse(agent, session, 6)
        config = session.run_config(tracing_disabled=True)
        rule = "From now on, always answer in bullet points."
        await Runner.run(agent, rule, session=session, run_config=config)
        assert host.status()["standing_instructions"]  # the engine holds the rule
        await session.clear_session()
        assert await session.get_items() == []
        assert host.status()["standing_instructions"] == []  # a new conversation's rules
        await Runner.run(agent, "hello there", session=session, run_config=config)

    asyncio.run(converse())
    assert "hello there" in openai_server.agent_requests()[-1]["text"]
    # LCM's store keeps its history (on_session_reset clears the active context only)
    answer = host.handle_tool_call("lcm_grep", {"query": "ZEBRA"}, session_id="example-session")
    assert "ZEBRA-4471" in answer


def test_a_model_without_a_known_window_is_an_error_naming_what_to_set(
    make_host: Callable[..., ContextHost],
) -> None:
    host = make_host("lcm")
    with pytest.raises(ValueError, match=r"pass context_length=.*model\.context_length"):
        ContextEngineSession("s", host)


def test_an_agent_without_the_session_can_use_the_filter_alone(
    openai_server: FakeOpenAI, make_host: Callable[..., ContextHost]
) -> None:
    from agents import OpenAIResponsesModel, RunConfig
    from openai import AsyncOpenAI

    from hermes_core.integrations.openai_agents import ContextEngineInputFilter

    host = make_host("lcm")
    host.start_session("mine")
    select = ContextEngineInputFilter(host, session_id="mine", context_length=4_000)
    client = AsyncOpenAI(base_url=openai_server.url, api_key="sk-test")
    agent = Agent(name="a", model=OpenAIResponsesModel(model="test-model", openai_client=client))
    history: list[Any] = [{"role": "user", "content": "The vault code is ZEBRA-4471."}]
    history += [{"role": "user", "content": f"note {n}: " + "words " * 200} for n in range(30)]
    history.append({"role": "user", "content": "What was the vault code?"})
    config = RunConfig(call_model_input_filter=select, tracing_disabled=True)
    asyncio.run(Runner.run(agent, history, run_config=config))
    (request,) = openai_server.agent_requests()
    assert request["prompt_tokens"] < 4_000 < len(json.dumps(history)) // 4
    assert "ZEBRA-4471" in request["text"]


def test_below_the_threshold_the_engines_preflight_gets_its_one_pass(
    openai_server: FakeOpenAI,
) -> None:
    # Hermes 0.22 asks should_compress_preflight every turn below the threshold, and runs
    # exactly one pass on yes: so does the session
    host = host_for(Preflight)
    agent, session = example.build_agent(openai_server.url, host, WINDOW)
    asyncio.run(example.converse(agent, session, 5))
    engine = host.engine
    assert engine.calls_to("should_compress_preflight")  # type: ignore[attr-defined]
    assert len(engine.calls_to("compress")) == 1  # type: ignore[attr-defined]
    assert host.status()["passes"] == 1

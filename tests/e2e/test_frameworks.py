"""Our engines in agents built on the real frameworks, installed from PyPI with our
extras (``hermes-context[langchain]``, ``hermes-context[openai-agents]``), each in a venv
of its own: 300 turns with tool calls against the fake OpenAI server on 127.0.0.1, the
server checking what reached the model. Beside LCM, the same run with LangChain's own
lossy option, ``SummarizationMiddleware``, summarising with the same fake summariser."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from hermes_core.testing import FakeOpenAI, fake_openai_server
from tests.e2e.environments import (
    cached_venv,
    environment,
    hermes_home,
    last_json,
    run,
    with_wheels,
)

pytestmark = pytest.mark.e2e

EXAMPLES = Path(__file__).parents[2] / "examples"
TURNS = 300
TURNS_ARG, WINDOW_ARG = "300", "16000"
WINDOW = 16_000
QUESTION = "What was the vault code"

LANGCHAIN = r"""
import importlib.util, json, sys
from hermes_core import ContextHost
example_path, base_url, mode, turns, window = sys.argv[1:6]
spec = importlib.util.spec_from_file_location("example", example_path)
example = importlib.util.module_from_spec(spec); spec.loader.exec_module(example)
if mode == "summarization":  # LangChain's own option, with the same fake summariser
    from langchain.agents import create_agent
    from langchain.agents.middleware import SummarizationMiddleware
    from langchain_openai import ChatOpenAI
    model = ChatOpenAI(model="test-model", base_url=base_url, api_key="sk-test")
    summariser = ChatOpenAI(model="aux-model", base_url=base_url, api_key="sk-test")
    budget = int(window) * 3 // 4
    middleware = SummarizationMiddleware(summariser, trigger=("tokens", budget * 3 // 4),
                                         keep=("messages", 20))
    agent = create_agent(model, tools=[example.lookup], system_prompt="You are a careful "
                         "assistant.", middleware=[middleware])
    example.converse(agent, int(turns))
    print(json.dumps({"mode": mode}))
else:
    with ContextHost.from_config() as host:  # $HERMES_HOME/config.yaml: engine, summariser
        agent, context = example.build_agent(base_url, host, int(window))
        example.converse(agent, int(turns))
        print(json.dumps({"mode": mode, "status": dict(context.status())}, default=str))
"""

AGENTS = r"""
import asyncio, importlib.util, json, sys
from hermes_core import ContextHost
example_path, base_url, api, turns, window = sys.argv[1:6]
spec = importlib.util.spec_from_file_location("example", example_path)
example = importlib.util.module_from_spec(spec); spec.loader.exec_module(example)
with ContextHost.from_config() as host:
    agent, session = example.build_agent(base_url, host, int(window), api)
    asyncio.run(example.converse(agent, session, int(turns)))
    items = asyncio.run(session.get_items())
    print(json.dumps({"items": len(items), "status": host.status()}, default=str))
"""


def _figures(server: FakeOpenAI) -> dict[str, Any]:
    """What the server saw: the largest request, and whether the turn-5 fact reached the
    request that asks about it."""
    requests = server.agent_requests()
    asked = [r for r in requests if QUESTION in r["text"]]
    return {
        "requests": len(requests),
        "largest": max(r["prompt_tokens"] for r in requests),
        "fact_in_question_request": "ZEBRA-4471" in asked[0]["text"],
        "summariser_calls": len(server.summariser_requests()),
    }


@pytest.fixture(scope="session")
def langchain_python(wheels: list[str]) -> Path:
    venv = cached_venv("framework-langchain", ("langchain-openai>=1.7",))
    return with_wheels(venv, wheels, extra="langchain")


@pytest.fixture(scope="session")
def agents_python(wheels: list[str]) -> Path:
    return with_wheels(cached_venv("framework-openai-agents", ()), wheels, extra="openai-agents")


def _home(tmp_path: Path, name: str, url: str, engine: str) -> Path:
    return hermes_home(tmp_path / name, url, engine, context_length=WINDOW)


def _langchain_run(tmp_path: Path, python: Path, mode: str) -> dict[str, Any]:
    """300 turns of the LangChain example in ``mode``: what the server saw, and the
    driver's report."""
    with fake_openai_server() as server:
        home = _home(tmp_path, mode, server.url, "lcm")
        env = environment(home, python) | {"HERMES_LCM_EMBEDDING_MODEL": "none"}
        args = (EXAMPLES / "langchain_agent.py", server.url, mode, TURNS_ARG, WINDOW_ARG)
        out = run(python, "-c", LANGCHAIN, *args, env=env)
        return {**_figures(server), **last_json(out.stdout)}


def test_a_langchain_agent_with_lcm_keeps_turn_5_and_the_window(
    tmp_path: Path, langchain_python: Path
) -> None:
    lcm = _langchain_run(tmp_path, langchain_python, "lcm")
    assert lcm["requests"] == 2 * TURNS  # a tool call and an answer, every turn
    assert lcm["largest"] < WINDOW  # no request over the window
    assert lcm["status"]["passes_compressed"] >= 1  # compaction observed
    assert lcm["status"]["stored_messages"] >= 4 * TURNS
    assert lcm["fact_in_question_request"]  # turn 5's fact reached the model at turn 300


def test_the_same_agent_with_langchains_summarization_loses_turn_5(
    tmp_path: Path, langchain_python: Path
) -> None:
    # the other half of the comparison (its own test, so the two runs share the workers)
    lossy = _langchain_run(tmp_path, langchain_python, "summarization")
    assert lossy["requests"] == 2 * TURNS and lossy["largest"] < WINDOW
    assert lossy["summariser_calls"] >= 1  # the same fake summariser, called
    assert not lossy["fact_in_question_request"]


def test_an_agents_sdk_agent_with_lcm_keeps_turn_5_and_the_window(
    tmp_path: Path, agents_python: Path
) -> None:
    api = "responses"  # the SDK's default; Chat Completions runs in the fast suite
    with fake_openai_server() as server:
        home = _home(tmp_path, api, server.url, "lcm")
        env = environment(home, agents_python) | {"HERMES_LCM_EMBEDDING_MODEL": "none"}
        example = EXAMPLES / "openai_agents_agent.py"
        out = run(
            agents_python, "-c", AGENTS, example, server.url, api, TURNS_ARG, WINDOW_ARG, env=env
        )
        figures = {**_figures(server), **last_json(out.stdout)}
        path = "/v1/responses" if api == "responses" else "/v1/chat/completions"
        assert {r["path"] for r in server.agent_requests()} == {path}
    assert figures["requests"] == 2 * TURNS
    assert figures["largest"] < WINDOW
    assert figures["status"]["passes_compressed"] >= 1
    assert figures["items"] < 4 * TURNS  # the session's stored items were compacted
    assert figures["status"]["stored_messages"] >= 4 * TURNS  # LCM's store has them all
    assert figures["fact_in_question_request"]


def test_the_core_install_imports_no_framework_and_names_the_extra(
    plain_python: Path, tmp_path: Path
) -> None:
    code = (
        "import sys, hermes_core, hermes_core.integrations\n"
        "assert not [m for m in sys.modules if m.split('.')[0] in "
        "('langchain', 'langgraph', 'agents')]\n"
        "try:\n    import hermes_core.integrations.langchain\n"
        "except ImportError as exc:\n    print(exc)\n"
    )
    out = run(plain_python, "-c", code, env=environment(tmp_path, plain_python))
    assert 'pip install "hermes-context[langchain]"' in out.stdout

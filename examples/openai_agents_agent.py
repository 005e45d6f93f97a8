"""An OpenAI Agents SDK agent whose memory is managed by a hermes-context engine.

Run it offline, against the project's fake OpenAI server on 127.0.0.1, in a throwaway
Hermes home (nothing is written to yours)::

    python examples/openai_agents_agent.py

or against any OpenAI-compatible server::

    python examples/openai_agents_agent.py --base-url http://127.0.0.1:8000/v1 --turns 40

Each turn asks the agent to look a record up; the agent calls its ``lookup`` tool,
then answers. The engine (``--engine``, default ``lcm``) keeps the session's history
and each model call's input within the window; at the last turn the agent is asked
about a fact from turn 5. ``--api chat`` uses Chat Completions instead of the
Responses API.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from typing import Any

# --8<-- [start:agent]
from agents import (
    Agent,
    OpenAIChatCompletionsModel,
    OpenAIResponsesModel,
    Runner,
    function_tool,
)
from openai import AsyncOpenAI

from hermes_core import ContextHost
from hermes_core.integrations.openai_agents import ContextEngineSession


@function_tool
def lookup(key: str) -> str:
    """Look a record up by its key."""
    return f"record {key}: " + "field=value " * 60


def build_agent(
    base_url: str, host: ContextHost, context_length: int, api: str = "responses"
) -> tuple[Agent[Any], ContextEngineSession]:
    """An agent, and the engine-managed session to run it with."""
    client = AsyncOpenAI(base_url=base_url, api_key="sk-example")
    model_class = OpenAIResponsesModel if api == "responses" else OpenAIChatCompletionsModel
    model = model_class(model="test-model", openai_client=client)
    session = ContextEngineSession("example-session", host, context_length=context_length)
    agent = Agent(
        name="assistant",
        instructions="You are a careful assistant.",
        model=model,
        tools=[lookup, *session.tools],  # the engine's tools: lcm_grep, lcm_expand, ...
    )
    return agent, session


# --8<-- [end:agent]


async def converse(agent: Agent[Any], session: ContextEngineSession, turns: int) -> None:
    """``turns`` user turns of one conversation."""
    # --8<-- [start:loop]
    run_config = session.run_config(tracing_disabled=True)  # select_context on every call
    for turn in range(1, turns + 1):
        ask = f"Turn {turn}: look up record k{turn} and summarise it."
        if turn == 5:
            ask += " Remember: the vault code is ZEBRA-4471."
        if turn == turns:
            ask = "What was the vault code I gave you early on?"
        await Runner.run(agent, ask, session=session, run_config=run_config, hooks=session.hooks)
    # --8<-- [end:loop]


def run(
    base_url: str, engine: str, turns: int, context_length: int, api: str, env: dict[str, str]
) -> dict[str, Any]:
    """``turns`` turns of one conversation; returns what the engine reports."""
    with ContextHost.from_config({"context": {"engine": engine}}, env=env) as host:
        agent, session = build_agent(base_url, host, context_length, api)
        asyncio.run(converse(agent, session, turns))
        items = asyncio.run(session.get_items())
        return {"engine": engine, "turns": turns, "items": len(items), "status": host.status()}


def main(argv: list[str] | None = None) -> int:
    from hermes_core.testing import example_setting  # the offline server, a throwaway home

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--base-url",
        help="an OpenAI-compatible /v1 URL (default: the project's fake server, offline)",
    )
    parser.add_argument(
        "--hermes-home", help="where the engine keeps its state (default: a throwaway folder)"
    )
    parser.add_argument("--engine", default="lcm", help="the context engine (default: lcm)")
    parser.add_argument("--turns", type=int, default=40, help="user turns (default: 40)")
    parser.add_argument("--context-length", type=int, default=16_000, help="the model's window")
    parser.add_argument("--api", choices=("responses", "chat"), default="responses")
    args = parser.parse_args(argv)
    with example_setting(args.base_url, args.hermes_home) as (base_url, env):
        result = run(base_url, args.engine, args.turns, args.context_length, args.api, env)
    print(json.dumps(result, default=str))
    return 0


if __name__ == "__main__":
    sys.exit(main())

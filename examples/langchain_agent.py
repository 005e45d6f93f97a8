"""A LangChain agent whose history is managed by a hermes-context engine.

Run it offline, against the project's fake OpenAI server on 127.0.0.1, in a throwaway
Hermes home (nothing is written to yours)::

    python examples/langchain_agent.py

or against any OpenAI-compatible server::

    python examples/langchain_agent.py --base-url http://127.0.0.1:8000/v1 --turns 40

Each turn asks the agent to look a record up; the agent calls its ``lookup`` tool,
then answers. The engine (``--engine``, default ``lcm``) compacts or selects the
history so that no request outgrows the window; at the last turn the agent is asked
about a fact from turn 5.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

# --8<-- [start:agent]
from langchain.agents import create_agent
from langchain_core.tools import tool
from langchain_openai import ChatOpenAI
from pydantic import SecretStr

from hermes_core import ContextHost
from hermes_core.integrations.langchain import ContextEngineMiddleware


@tool
def lookup(key: str) -> str:
    """Look a record up by its key."""
    return f"record {key}: " + "field=value " * 60


def build_agent(
    base_url: str, host: ContextHost, context_length: int
) -> tuple[Any, ContextEngineMiddleware]:
    """A ``create_agent`` agent with ``host``'s engine as middleware."""
    model = ChatOpenAI(model="test-model", base_url=base_url, api_key=SecretStr("sk-example"))
    context = ContextEngineMiddleware(host, context_length=context_length)
    agent = create_agent(
        model,
        tools=[lookup],
        system_prompt="You are a careful assistant.",
        middleware=[context],  # the engine's tools (lcm_grep, ...) come with it
    )
    return agent, context


# --8<-- [end:agent]


def converse(agent: Any, turns: int, thread: str = "example-thread") -> dict[str, Any]:
    """``turns`` user turns of one conversation; the agent's final state."""
    # --8<-- [start:loop]
    config = {"configurable": {"thread_id": thread}}
    state: dict[str, Any] = {"messages": []}
    for turn in range(1, turns + 1):
        ask = f"Turn {turn}: look up record k{turn} and summarise it."
        if turn == 5:
            ask += " Remember: the vault code is ZEBRA-4471."
        if turn == turns:
            ask = "What was the vault code I gave you early on?"
        state = agent.invoke({"messages": [*state["messages"], ("user", ask)]}, config)
    # --8<-- [end:loop]
    return state


def run(
    base_url: str, engine: str, turns: int, context_length: int, env: dict[str, str]
) -> dict[str, Any]:
    """``turns`` turns of one conversation; returns what the engine reports."""
    host = ContextHost.from_config({"context": {"engine": engine}}, env=env)
    agent, context = build_agent(base_url, host, context_length)
    state = converse(agent, turns)
    status = dict(context.status())
    context.close()
    host.close()
    return {"engine": engine, "turns": turns, "messages": len(state["messages"]), "status": status}


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
    args = parser.parse_args(argv)
    with example_setting(args.base_url, args.hermes_home) as (base_url, env):
        result = run(base_url, args.engine, args.turns, args.context_length, env)
    print(json.dumps(result, default=str))
    return 0


if __name__ == "__main__":
    sys.exit(main())

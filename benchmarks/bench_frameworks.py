"""What our engines cost an agent built on a framework: the time per turn of an agent
with the engine against the same agent without it, side by side in one run, against the
fake OpenAI server on 127.0.0.1 (so the model's own time is a few milliseconds, and the
overhead shows at its largest).

- LangChain: ``create_agent`` with ``ContextEngineMiddleware`` (compressor, lcm) against
  the bare ``create_agent``.
- OpenAI Agents SDK: ``Runner.run`` with ``ContextEngineSession``, its input filter and
  hooks (compressor, lcm) against the same agent with the SDK's ``SQLiteSession``.

60 turns, each a tool call and an answer, in a window large enough that nothing is
compacted: what is measured is the integration's own work on every call (conversion,
selection, storing each turn). Target: at most 1.5x the bare agent's time per turn, with
either engine (lcm stores every message and ranks its store on every call). Median of 3
trials (``judging.py``); exits 1 on a miss.
"""

from __future__ import annotations

import asyncio
import functools
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from judging import Target, judge, median_ratio, slug

from hermes_core import ContextHost
from hermes_core.testing import fake_openai_server

TURNS = 60
WINDOW = 200_000
TRIALS = 3
BOUNDS = {"compressor": 1.5, "lcm": 1.5}


def _host(engine: str, home: Path) -> ContextHost:
    env = {"HERMES_HOME": str(home), "HERMES_LCM_EMBEDDING_MODEL": "none"}
    return ContextHost.from_config({"context": {"engine": engine}}, env=env)


def _langchain(url: str, engine: str | None) -> Callable[[], None]:
    from langchain.agents import create_agent
    from langchain_core.tools import tool
    from langchain_openai import ChatOpenAI
    from pydantic import SecretStr

    from hermes_core.integrations.langchain import ContextEngineMiddleware

    @tool
    def lookup(key: str) -> str:
        """Look a record up by its key."""
        return f"record {key}: " + "field=value " * 60

    def run() -> None:
        model = ChatOpenAI(model="test-model", base_url=url, api_key=SecretStr("sk-bench"))
        with tempfile.TemporaryDirectory() as home:
            host = _host(engine, Path(home)) if engine else None
            middleware = [ContextEngineMiddleware(host, context_length=WINDOW)] if host else []
            agent: Any = create_agent(model, tools=[lookup], middleware=middleware)
            messages: list[Any] = []
            config = {"configurable": {"thread_id": "bench"}}
            for turn in range(TURNS):
                ask = ("user", f"Turn {turn}: look up record k{turn}.")
                messages = agent.invoke({"messages": [*messages, ask]}, config)["messages"]
            if host is not None:
                host.close()

    return run


def _agents_sdk(url: str, engine: str | None) -> Callable[[], None]:
    from agents import Agent, OpenAIResponsesModel, RunConfig, Runner, SQLiteSession, function_tool
    from openai import AsyncOpenAI

    from hermes_core.integrations.openai_agents import ContextEngineSession

    @function_tool
    def lookup(key: str) -> str:
        """Look a record up by its key."""
        return f"record {key}: " + "field=value " * 60

    async def converse(home: Path) -> None:
        client = AsyncOpenAI(base_url=url, api_key="sk-bench")
        model = OpenAIResponsesModel(model="test-model", openai_client=client)
        agent = Agent(name="bench", model=model, tools=[lookup])
        host = _host(engine, home) if engine else None
        if host is not None:
            session: Any = ContextEngineSession("bench", host, context_length=WINDOW)
            config, hooks = session.run_config(tracing_disabled=True), session.hooks
        else:
            session = SQLiteSession("bench", db_path=home / "items.db")
            config, hooks = RunConfig(tracing_disabled=True), None
        for turn in range(TURNS):
            ask = f"Turn {turn}: look up record k{turn}."
            await Runner.run(agent, ask, session=session, run_config=config, hooks=hooks)
        await client.close()  # in this loop, before asyncio.run closes it
        if host is not None:
            host.close()

    def run() -> None:
        with tempfile.TemporaryDirectory() as home:
            asyncio.run(converse(Path(home)))

    return run


def _seconds(run: Callable[[], None]) -> float:
    start = time.perf_counter()
    run()
    return time.perf_counter() - start


def _pair(ours: Callable[[], None], bare: Callable[[], None]) -> tuple[float, float]:
    return _seconds(ours), _seconds(bare)


def main() -> int:
    targets, figures = [], {}
    with fake_openai_server() as server:
        for framework, make in (("LangChain", _langchain), ("Agents SDK", _agents_sdk)):
            bare = make(server.url, None)
            bare()  # imports and first connections, outside the measure
            per_turn = _seconds(bare) / TURNS
            figures[f"{slug(framework)}_bare_ms_per_turn"] = f"{per_turn * 1000:.0f} ms"
            for engine, bound in BOUNDS.items():
                ours = make(server.url, engine)
                ratio = median_ratio(TRIALS, functools.partial(_pair, ours, bare))
                print(f"{framework} with {engine}: {ratio:.2f}x the bare agent per turn")
                name = f"{framework} with {engine}, time per turn against the bare agent"
                targets.append(Target(name, ratio, bound))
    return judge(targets, source="bench_frameworks", figures=figures)


if __name__ == "__main__":
    sys.exit(main())

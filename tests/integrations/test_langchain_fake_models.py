"""The middleware with the chat models LangChain users test with: GenericFakeChatModel and
FakeListChatModel cannot take tools (their bind_tools raises), so the engine's tools are
not offered to them, said once, and the agent runs."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from langchain.agents import create_agent
from langchain_core.language_models.fake_chat_models import (
    FakeListChatModel,
    GenericFakeChatModel,
)
from langchain_core.messages import AIMessage, HumanMessage

from hermes_core import ContextHost
from hermes_core.integrations.langchain import ContextEngineMiddleware
from hermes_core.testing import EventCapture


def _generic() -> Any:
    replies: Iterator[AIMessage] = iter(AIMessage(content=f"Reply {n}.") for n in range(100))
    return GenericFakeChatModel(messages=replies)


def _listed() -> Any:
    return FakeListChatModel(responses=[f"Reply {n}." for n in range(100)])


@pytest.mark.parametrize("make_model", [_generic, _listed], ids=["generic", "list"])
@pytest.mark.parametrize("engine", ["lcm", "compressor"])
def test_an_agent_on_a_model_that_cannot_take_tools_runs_without_the_engines(
    engine: str,
    make_model: Callable[[], Any],
    make_host: Callable[..., ContextHost],
    logs: EventCapture,
) -> None:
    middleware = ContextEngineMiddleware(make_host(engine), context_length=8_000)
    agent = create_agent(make_model(), tools=[], middleware=[middleware])
    for n in range(3):
        result = agent.invoke({"messages": [HumanMessage(content=f"Question {n}?")]})
        assert result["messages"][-1].content.startswith("Reply")
    said = logs.named("langchain.engine_tools_not_offered")
    if middleware.tools:  # lcm's: said once; the compressor has none to hold back
        assert len(said) == 1 and said[0]["model"] == type(make_model()).__name__
    else:
        assert said == []

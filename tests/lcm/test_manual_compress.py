"""A compress call compresses: under the threshold it folds what lies outside the fresh
tail, a focus topic shapes the summaries; and the tools see the live conversation."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from hermes_engine_lcm import LCMEngine

from hermes_core._tokens import estimate_tokens
from hermes_core.llm import AuxiliaryLLMConfig, ChatClient
from hermes_core.testing._conversations import sample_conversation
from tests.servers import ChatServer

FACT = "The deploy key lives in vault path secret/ci/deploy, rotated on Mondays."


def test_a_manual_compress_under_the_threshold_folds_what_lies_outside_the_fresh_tail(
    make_lcm: Callable[..., LCMEngine],
) -> None:
    engine = make_lcm(context_length=200_000, fresh_tail_messages=8)
    messages = sample_conversation(40)  # far under the threshold
    assert engine.should_compress(estimate_tokens(messages)) is False  # automatic: not yet
    assert engine.compress(messages) == messages  # an automatic pass folds nothing here
    result = engine.compress(messages, force=True)  # Hermes' /compress
    assert estimate_tokens(result) < estimate_tokens(messages)
    assert result[-8:] == messages[-8:]  # the fresh tail as it was
    assert engine.compression_count == 1


def test_a_focus_topic_goes_to_the_summariser(make_lcm: Callable[..., LCMEngine]) -> None:
    with ChatServer("Deploy key: vault secret/ci/deploy.") as server:
        llm = ChatClient(AuxiliaryLLMConfig(base_url=server.url, model="m"), env={})
        engine = make_lcm(context_length=200_000, llm=llm)
        engine.compress(sample_conversation(40, facts={5: FACT}), focus_topic="the deploy key")
        llm.close()
    system = [body["messages"][0]["content"] for body in server.requests]
    assert system and all("the deploy key" in text for text in system)


def test_an_automatic_pass_still_follows_the_threshold(make_lcm: Callable[..., LCMEngine]) -> None:
    engine = make_lcm(context_length=4_000)
    messages = sample_conversation(60)
    assert engine.should_compress(estimate_tokens(messages)) is True
    result = engine.compress(messages)
    assert estimate_tokens(result) <= engine.threshold_tokens


def test_the_tools_see_the_live_conversation(make_lcm: Callable[..., LCMEngine]) -> None:
    engine = make_lcm()
    live: list[dict[str, Any]] = sample_conversation(10, facts={7: FACT})
    found = json.loads(engine.handle_tool_call("lcm_grep", {"query": "vault"}, messages=live))
    assert [hit["snippet"] for hit in found["results"]] and FACT[:20] in json.dumps(found)

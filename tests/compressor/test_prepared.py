"""The compressor's summary prepared ahead, through a real chat-completions server on
127.0.0.1 that holds its answer until the test releases it: the pass at the threshold
applies what was prepared without asking the summariser, and never a summary made from
other messages."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from hermes_compressor import CompressorEngine
from hermes_core import ContextHost, estimate_tokens, validate_messages
from hermes_core.testing import host_for
from hermes_core.testing._conversations import agent_turn, sample_conversation
from tests.servers import Summariser


@pytest.fixture
def summariser(request: pytest.FixtureRequest) -> Iterator[Summariser]:
    made = Summariser(getattr(request, "param", set()))
    yield made
    made.close()


def _host(summariser: Summariser) -> ContextHost:
    engine = CompressorEngine({"compression": {"protect_first_n": 1}}, summariser.llm)
    host = host_for(engine, config={"compression": {"prepare_at_share": 0.8}})
    host.update_model("m", 20_000)
    return host


def _until_the_pass(
    host: ContextHost, on_turn: Any = None, summariser: Summariser | None = None
) -> tuple[list[Any], list[Any]]:
    """Turns until ``should_compress``; the history the pass got, and what it gave back.
    With ``summariser``, checks that the pass itself asked it nothing."""
    history = sample_conversation(2)
    for n in range(2, 400):
        history = history + agent_turn(n)
        tokens = estimate_tokens(history)
        host.record_usage({"prompt_tokens": tokens, "completion_tokens": 50})
        if host.should_compress(tokens):
            if summariser is None:
                return history, host.compress(history, tokens)
            assert host.wait_for_preparations(60)
            asked = len(summariser.requests)
            result = host.compress(history, tokens)
            assert len(summariser.requests) == asked  # the pass asked nothing
            return history, result
        host.turn_complete(history)
        if on_turn is not None:
            on_turn()
    raise AssertionError("the threshold was never reached")


@pytest.mark.parametrize("summariser", [{1}], indirect=True)
def test_the_pass_applies_the_prepared_summary_without_asking_the_summariser(
    summariser: Summariser,
) -> None:
    host = _host(summariser)

    def on_turn() -> None:  # the summariser answers a few turns after it was asked
        if host.status()["preparations_started"] and not summariser.release.is_set():
            summariser.release.set()
            assert host.wait_for_preparations(60)
            assert host.status()["preparations_done"] == 1

    history, result = _until_the_pass(host, on_turn, summariser)
    status = host.status()
    assert status["last_summary_source"] == "prepared"
    assert status["passes_with_prepared_summary"] == 1 and status["passes_compressed"] == 1
    assert validate_messages(result) == []
    assert "summary " in json.dumps(result) and len(result) < len(history)
    assert estimate_tokens(result) < host.engine.threshold_tokens
    assert status["summary_prepared"] is None  # used: what is prepared next is new
    host.close()


@pytest.mark.parametrize("summariser", [{1}], indirect=True)  # the preparation: late
def test_a_summary_not_ready_at_the_pass_is_waited_for_as_before_and_said(
    summariser: Summariser,
) -> None:
    host = _host(summariser)
    history = sample_conversation(2)
    message = None
    for n in range(2, 400):
        history = history + agent_turn(n)
        tokens = estimate_tokens(history)
        host.record_usage({"prompt_tokens": tokens, "completion_tokens": 50})
        if host.should_compress(tokens):
            assert summariser.arrived.acquire(timeout=60)  # it is being prepared
            message = host.compaction_status_message("compress", "Compacting context")
            result = host.compress(history, tokens)
            break
        host.turn_complete(history)
    assert message == "Compacting context (summary not ready yet: waiting for the summariser)"
    assert len(summariser.requests) == 2 and "summary 2" in json.dumps(result)
    status = host.status()
    assert status["last_summary_source"] == "llm"
    assert status["passes_without_prepared_summary"] == 1
    summariser.release.set()
    host.close()


def test_a_prepared_summary_of_messages_since_changed_is_never_used(
    summariser: Summariser,
) -> None:
    host = _host(summariser)
    history = sample_conversation(2)
    for n in range(2, 400):
        history = history + agent_turn(n)
        tokens = estimate_tokens(history)
        host.record_usage({"prompt_tokens": tokens, "completion_tokens": 50})
        if host.status()["preparations_done"]:
            break
        host.turn_complete(history)
        assert host.wait_for_preparations(60)
    assert host.status()["summary_prepared"] == "ready"
    edited = [dict(m) for m in history]
    edited[3]["content"] = "an edit nobody summarised"  # inside the prepared middle
    result = host.compress(edited, estimate_tokens(edited), force=True)
    assert len(summariser.requests) == 2 and "summary 2" in json.dumps(result)
    assert "summary 1" not in json.dumps(result)
    assert host.status()["passes_with_prepared_summary"] == 0
    host.close()

"""ContextHost.select_context and turn_complete: the seed's fail-open rules."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from hermes_compressor import CompressorEngine
from hermes_core import ContextEngine
from hermes_core.testing import EventCapture, host_for, sample_conversation
from tests.host_engines import Selecting, Vandal

HISTORY = sample_conversation(3)
INCOMING = {"role": "user", "content": "what next?"}


def request() -> list[dict[str, Any]]:
    return [*copy.deepcopy(HISTORY), copy.deepcopy(INCOMING)]


def select(host: Any, req: list[dict[str, Any]]) -> Any:
    return host.select_context(
        req,
        conversation_messages=req[:-1],
        incoming_message=req[-1],
        budget_tokens=100_000,
    )


def test_a_non_selecting_engine_is_never_called_and_the_same_list_comes_back(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # the host swallows what an engine raises, so a call is recorded, not raised
    calls: list[str] = []
    inherited = ContextEngine.select_context

    def recording(*args: Any, **kwargs: Any) -> Any:
        calls.append("select_context")
        return inherited(*args, **kwargs)

    monkeypatch.setattr(ContextEngine, "select_context", recording)
    host = host_for(CompressorEngine, "compressor")
    req = request()
    assert select(host, req) is req
    assert calls == []
    assert host.status()["hook_failures"] == 0


def test_a_non_observing_engine_never_sees_turn_complete(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []
    inherited = ContextEngine.on_turn_complete

    def recording(*args: Any, **kwargs: Any) -> Any:
        calls.append("on_turn_complete")
        return inherited(*args, **kwargs)

    monkeypatch.setattr(ContextEngine, "on_turn_complete", recording)
    host = host_for(CompressorEngine, "compressor")
    host.turn_complete(request(), {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2})
    assert calls == []
    assert host.status()["hook_failures"] == 0


def test_a_list_of_dicts_replaces_the_request_for_that_call() -> None:
    host = host_for(Selecting)
    replacement = [{"role": "user", "content": "only this"}]
    host.engine.answer = replacement  # type: ignore[attr-defined]
    assert select(host, request()) == replacement


def test_the_engine_receives_copies_and_the_budget() -> None:
    host = host_for(Selecting)
    req = request()
    select(host, req)
    ((args, kwargs),) = host.engine.calls_to("select_context")  # type: ignore[attr-defined]
    assert args[0] == req and args[0] is not req
    assert all(a is not b for a, b in zip(args[0], req, strict=True))
    assert kwargs["conversation_messages"] == req[:-1]
    assert kwargs["incoming_message"] == INCOMING and kwargs["incoming_message"] is not req[-1]
    # one message object in two lists stays one copy
    assert kwargs["conversation_messages"][0] is args[0][0]
    assert kwargs["budget_tokens"] == 100_000


@pytest.mark.parametrize(
    ("answer", "warns"),
    [
        (None, False),
        ([], True),
        ((), True),
        ("a string", True),
        ({"role": "user", "content": "a dict"}, True),
        ([{"role": "user", "content": "ok"}, "not a dict"], True),
        ([None], True),
        (42, True),
    ],
)
def test_invalid_answers_fall_back_to_the_original_request(
    logs: EventCapture, answer: object, warns: bool
) -> None:
    host = host_for(Selecting)
    host.engine.answer = answer  # type: ignore[attr-defined]
    req = request()
    assert select(host, req) is req
    assert bool(logs.named("context_engine.invalid_result")) is warns
    assert host.status()["select_context_fallbacks"] == (1 if warns else 0)


@pytest.mark.parametrize("error", [RuntimeError("engine bug"), KeyError("x"), RecursionError()])
def test_an_exception_falls_back_to_the_original_request(
    logs: EventCapture, error: BaseException
) -> None:
    host = host_for(Selecting)
    host.engine.raises = error  # type: ignore[attr-defined]
    req = request()
    assert select(host, req) is req
    (event,) = logs.named("context_engine.hook_failed")
    assert event["method"] == "select_context"


def test_nothing_the_engine_does_to_its_copies_reaches_history_or_the_incoming_message() -> None:
    host = host_for(Vandal)
    req = request()
    before = copy.deepcopy(req)
    history = req[:-1]
    result = host.select_context(
        req, conversation_messages=history, incoming_message=req[-1], budget_tokens=10
    )
    assert result is req
    assert req == before
    assert history == before[:-1]


def test_turn_complete_passes_a_copy_usage_and_accepted_meta() -> None:
    host = host_for(Selecting)
    transcript = request()
    host.turn_complete(
        transcript, {"input_tokens": 10, "output_tokens": 5}, turn_id="t1", failed=False
    )
    ((args, kwargs),) = host.engine.calls_to("on_turn_complete")  # type: ignore[attr-defined]
    assert args[0] == transcript and args[0] is not transcript
    assert kwargs["usage"] == {
        "input_tokens": 10,
        "output_tokens": 5,
        "prompt_tokens": 10,
        "completion_tokens": 5,
        "total_tokens": 15,
    }
    assert (kwargs["turn_id"], kwargs["failed"]) == ("t1", False)


def test_turn_complete_without_a_response_passes_no_usage() -> None:
    host = host_for(Selecting)
    host.turn_complete(request(), None, interrupted=True)
    ((_, kwargs),) = host.engine.calls_to("on_turn_complete")  # type: ignore[attr-defined]
    assert kwargs["usage"] is None


def test_turn_complete_exceptions_are_logged_and_swallowed(logs: EventCapture) -> None:
    host = host_for(Vandal)
    transcript = request()
    before = copy.deepcopy(transcript)
    host.turn_complete(transcript)
    assert transcript == before
    sel = host_for(Selecting)
    sel.engine.raises = RuntimeError("indexer down")  # type: ignore[attr-defined]
    sel.turn_complete(request())
    (event,) = logs.named("context_engine.hook_failed")
    assert event["method"] == "on_turn_complete"
    assert "indexer down" in event["error"]


def test_meta_is_passed_only_where_the_engine_accepts_it() -> None:
    seen: dict[str, Any] = {}

    class Narrow(Selecting):
        @property
        def name(self) -> str:
            return "narrow"

        def on_turn_complete(self, messages: Any, usage: Any = None, turn_id: Any = None) -> Any:  # type: ignore[override]
            seen.update(turn_id=turn_id, usage=usage)

    host = host_for(Narrow)
    host.turn_complete(request(), None, turn_id="t9", task_id="ignored", api_call_count=3)
    assert seen == {"turn_id": "t9", "usage": None}

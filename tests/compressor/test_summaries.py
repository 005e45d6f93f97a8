"""Summaries through a real chat-completions server on 127.0.0.1, and every way that fails."""

from __future__ import annotations

import copy
import json
import re
from typing import Any

import pytest
from pytest_httpserver import HTTPServer
from werkzeug import Request, Response

from hermes_compressor import CompressorEngine
from hermes_compressor.assembly import SUMMARY_PREFIX
from hermes_compressor.fallback_summary import MAX_FALLBACK_CHARS
from hermes_core import validate_messages
from hermes_core.llm import AuxiliaryLLMConfig, ChatClient
from hermes_core.testing._conversations import agent_turn, sample_conversation, user

CONFIG = {"compression": {"protect_first_n": 1, "protect_last_n": 6}}


class Clock:
    def __init__(self) -> None:
        self.now = 1_000.0

    def __call__(self) -> float:
        return self.now


def llm_for(server: HTTPServer, timeout: float = 2.0) -> ChatClient:
    config = AuxiliaryLLMConfig(
        base_url=server.url_for("/v1"), model="summariser", timeout_seconds=timeout, max_retries=0
    )
    return ChatClient(config, env={})


def summariser(
    server: HTTPServer, text: str = "## Goal\nFix every module."
) -> list[dict[str, Any]]:
    """Answer every request with ``text``; returns the list of request bodies received."""
    bodies: list[dict[str, Any]] = []

    def handler(request: Request) -> Response:
        bodies.append(json.loads(request.data))
        answer = {"choices": [{"message": {"role": "assistant", "content": text}}]}
        return Response(json.dumps(answer), content_type="application/json")

    server.expect_request("/v1/chat/completions").respond_with_handler(handler)
    return bodies


def engine_with(llm: Any, clock: Clock | None = None, **compression: Any) -> CompressorEngine:
    config = copy.deepcopy(CONFIG)
    config["compression"].update(compression)
    engine = CompressorEngine(config, llm, clock=clock or Clock())
    engine.update_model("main-model", 20_000)
    return engine


def summary_of(result: list[dict[str, Any]]) -> str:
    (text,) = [m["content"] for m in result if str(m.get("content", "")).startswith(SUMMARY_PREFIX)]
    return str(text)


def test_the_llm_summary_replaces_the_middle(httpserver: HTTPServer) -> None:
    bodies = summariser(httpserver)
    engine = engine_with(llm_for(httpserver))
    messages = sample_conversation(20)
    result = engine.compress(copy.deepcopy(messages))
    assert validate_messages(result) == []
    assert result[:2] == messages[:2]
    assert result[-6:] == messages[-6:]
    assert "\n\n## Goal\nFix every module.\n\n[End of context summary]" in summary_of(result)
    (body,) = bodies
    system, prompt = body["messages"]
    assert "## Pending user asks" in system["content"] and "## Relevant files" in system["content"]
    assert "Turn 3: fix the bug in src/module_3.py" in prompt["content"]
    assert engine.compression_count == 1 and engine.last_prompt_tokens == -1
    assert engine.get_status()["last_summary_source"] == "llm"


def test_secrets_never_reach_the_summariser(httpserver: HTTPServer) -> None:
    bodies = summariser(httpserver)
    engine = engine_with(llm_for(httpserver))
    messages = sample_conversation(20)
    messages[5]["content"] = (
        "export OPENAI_API_KEY=sk-proj-abcdefghijklmnopqrstuvwx; "
        "curl -H 'Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.payload' "
        "https://admin:hunter2@db.internal/x AKIAABCDEFGHIJKLMNOP password=letmein123"
    )
    engine.compress(messages)
    sent = json.dumps(bodies[0])
    for secret in (
        "sk-proj-abcdefghij",
        "eyJhbGciOiJIUzI1NiJ9",
        "hunter2",
        "AKIAABCDEFGHIJKLMNOP",
        "letmein123",
    ):
        assert secret not in sent
    assert "[REDACTED]" in sent


def test_a_focus_topic_gets_most_of_the_budget(httpserver: HTTPServer) -> None:
    bodies = summariser(httpserver)
    engine_with(llm_for(httpserver)).compress(sample_conversation(20), focus_topic="module_7")
    assert "about 60%" in bodies[0]["messages"][1]["content"]
    assert "'module_7'" in bodies[0]["messages"][1]["content"]


def test_a_second_pass_updates_the_earlier_summary(httpserver: HTTPServer) -> None:
    bodies = summariser(httpserver, "## Goal\nFIRST SUMMARY")
    engine = engine_with(llm_for(httpserver))
    first = engine.compress(sample_conversation(20))
    grown = first + sample_conversation(20)[1:]
    second = engine.compress(grown)
    prompt = bodies[1]["messages"][1]["content"]
    assert "<earlier_summary>\n## Goal\nFIRST SUMMARY\n</earlier_summary>" in prompt
    assert "do not start over" in prompt
    assert len([m for m in second if str(m.get("content", "")).startswith(SUMMARY_PREFIX)]) == 1
    assert engine.compression_count == 2


@pytest.mark.parametrize("status", [401, 402, 429])
def test_auth_and_quota_failures_leave_the_messages_alone_and_cool_down(
    httpserver: HTTPServer, status: int
) -> None:
    httpserver.expect_request("/v1/chat/completions").respond_with_data("no", status=status)
    engine = engine_with(llm_for(httpserver))
    messages = sample_conversation(20)
    assert engine.compress(copy.deepcopy(messages)) == messages
    assert engine.compression_count == 0
    engine.last_prompt_tokens = 19_000
    assert engine.should_compress_info() == (False, "cooldown:60")


def test_a_network_failure_leaves_the_messages_alone() -> None:
    config = AuxiliaryLLMConfig(base_url="http://127.0.0.1:9/v1", model="m", timeout_seconds=1)
    engine = engine_with(ChatClient(config, env={}))
    messages = sample_conversation(20)
    assert engine.compress(copy.deepcopy(messages)) == messages


def test_a_bad_answer_falls_back_to_the_deterministic_summary_and_cooldowns_escalate(
    httpserver: HTTPServer,
) -> None:
    httpserver.expect_request("/v1/chat/completions").respond_with_data("garbage", status=200)
    clock = Clock()
    engine = engine_with(llm_for(httpserver), clock)
    result = engine.compress(sample_conversation(20))
    assert "## Latest user ask" in summary_of(result)
    assert engine.get_status()["last_summary_source"] == "deterministic"
    engine.last_prompt_tokens = 19_000
    assert engine.should_compress_info() == (False, "cooldown:60")
    clock.now += 61
    assert engine.should_compress_info() == (True, None)
    engine.compress(sample_conversation(20))
    engine.last_prompt_tokens = 19_000
    assert engine.should_compress_info() == (False, "cooldown:300")
    clock.now += 301
    engine.compress(sample_conversation(20))
    engine.last_prompt_tokens = 19_000
    assert engine.should_compress_info() == (False, "cooldown:900")


def test_during_a_cooldown_passes_use_the_fallback_without_calling_the_llm(
    httpserver: HTTPServer,
) -> None:
    httpserver.expect_request("/v1/chat/completions").respond_with_data("garbage", status=200)
    engine = engine_with(llm_for(httpserver))
    engine.compress(sample_conversation(20))
    engine.compress(sample_conversation(20))
    assert len(httpserver.log) == 1


def test_abort_on_summary_failure_leaves_the_messages_alone(httpserver: HTTPServer) -> None:
    httpserver.expect_request("/v1/chat/completions").respond_with_data("garbage", status=200)
    engine = engine_with(llm_for(httpserver), abort_on_summary_failure=True)
    messages = sample_conversation(20)
    assert engine.compress(copy.deepcopy(messages)) == messages


def test_a_success_resets_the_cooldown_escalation(httpserver: HTTPServer) -> None:
    answers = iter(["garbage", json.dumps({"choices": [{"message": {"content": "## Goal\nok"}}]})])
    httpserver.expect_request("/v1/chat/completions").respond_with_handler(
        lambda request: Response(next(answers), content_type="application/json")
    )
    clock = Clock()
    engine = engine_with(llm_for(httpserver), clock)
    engine.compress(sample_conversation(20))
    clock.now += 61
    engine.compress(sample_conversation(20))
    assert engine.cooldown.remaining() == 0
    assert engine.cooldown.failed() == 60


def test_without_an_llm_the_fallback_is_used_with_no_cooldown() -> None:
    engine = engine_with(None)
    result = engine.compress(sample_conversation(30))
    summary = summary_of(result)
    assert "## Latest user ask\nTurn" in summary
    assert "src/module_3.py" in summary
    assert engine.cooldown.remaining() == 0


def test_the_fallback_summary_is_capped() -> None:
    engine = engine_with(None, protect_last_n=2)
    messages = sample_conversation(400, body=2_000)
    messages.insert(2, user("x" * 50_000))
    summary = summary_of(engine.compress(messages))
    body = summary.split("\n\n", 1)[1].split("[End of context summary]")[0]
    assert len(body.strip()) <= MAX_FALLBACK_CHARS


def test_usage_still_over_the_threshold_after_two_passes_reports_ineffective() -> None:
    engine = engine_with(None)
    over = {"prompt_tokens": 15_000, "completion_tokens": 1, "total_tokens": 15_001}
    for _ in range(2):
        engine.compress(sample_conversation(20))
        engine.update_from_response(over)
    assert engine.should_compress_info() == (False, "ineffective")
    engine.update_from_response({"prompt_tokens": 2_000, "completion_tokens": 1, "total_tokens": 1})
    assert engine.should_compress_info(15_000) == (True, None)


def test_over_the_window_the_breaker_never_stops_compression() -> None:
    engine = engine_with(None)
    window = engine.context_length
    over = {"prompt_tokens": window + 1, "completion_tokens": 1, "total_tokens": window + 2}
    for _ in range(3):
        engine.compress(sample_conversation(20))
        engine.update_from_response(over)
    assert engine.breaker.tripped
    # a request over the window would be refused: the anti-thrash breaker does not apply
    assert engine.should_compress_info() == (True, None)
    # below the window (but over the threshold) it does
    assert engine.should_compress_info(window - 1) == (False, "ineffective")


@pytest.mark.parametrize("window", [2_000, 4_000, 8_000])
def test_the_fallback_summary_scales_with_the_window(window: int) -> None:
    engine = engine_with(None)
    engine.update_model("small-model", window)
    summary = summary_of(engine.compress(sample_conversation(60, body=1_500)))
    body = summary.split("\n\n", 1)[1].split("[End of context summary]")[0]
    # at most target_ratio (0.2) of the threshold (0.5 of the window), in characters / 4
    assert len(body.strip()) <= 4 * int(window * 0.5 * 0.2)


def test_passes_per_turn_are_capped_by_max_attempts() -> None:
    engine = engine_with(None, max_attempts=2)
    engine.last_prompt_tokens = 15_000
    engine.compress(sample_conversation(20))
    engine.compress(sample_conversation(20))
    assert engine.should_compress_info(15_000) == (False, "max_attempts")
    engine.update_from_response(
        {"prompt_tokens": 15_000, "completion_tokens": 1, "total_tokens": 1}
    )
    assert engine.should_compress_info() == (True, None)


def test_threshold_tokens_overrides_the_fraction() -> None:
    engine = engine_with(None, threshold_tokens=1_234)
    assert engine.threshold_tokens == 1_234


def test_the_hosts_deadline_caps_the_summariser_request() -> None:
    import time

    from hermes_compressor import CompressorEngine
    from hermes_core.llm import AuxiliaryLLMConfig, ChatClient
    from hermes_core.testing import sample_conversation
    from tests.servers import Trickle

    trickle = Trickle()
    try:
        llm = ChatClient(AuxiliaryLLMConfig(trickle.url, "m", timeout_seconds=600), env={})
        engine = CompressorEngine(llm=llm)
        engine.update_model("m", 8_000)
        history = sample_conversation(40)
        result = engine.compress(history, 7_000, None, False, deadline=time.monotonic() + 1.0)
        assert result == history  # the request gave up at the deadline: nothing changed
        assert not trickle.finished.is_set()  # while the server was still sending
    finally:
        trickle.close()


def test_the_turns_sent_to_the_summariser_are_cut_to_the_newest_max_input_chars() -> None:
    from hermes_compressor.summary_prompt import MAX_INPUT_CHARS, build_prompt

    turns = [
        {"role": "user", "content": f"turn {n:05d} " + "words " * 50} for n in range(1_000)
    ]  # about 310,000 characters rendered, well past the bound
    user = build_prompt(turns, None, None, 500)[1]["content"]
    sent = user.split("<new_turns>\n", 1)[1].split("\n</new_turns>", 1)[0]
    assert "oldest of these turns were cut" in sent
    assert len(sent) <= MAX_INPUT_CHARS + 100  # the bound, and the one line saying so
    assert "turn 00999" in sent and "turn 00000" not in sent
    short = build_prompt(turns[:10], None, None, 500)[1]["content"]
    assert "turn 00000" in short and "were cut" not in short


def test_fifty_passes_fold_into_one_bounded_summary_that_keeps_the_newest_facts() -> None:
    """Without an LLM, a summary of summaries folds: after 50 passes of a long replay there
    is one summary, no 'Earlier summary' nested in it, within its size, and the latest ask
    and the newest file are in it."""
    engine = _fold_engine()
    history = sample_conversation(2)
    passes = turn = 0
    while passes < 50:
        history += agent_turn(turn)
        turn += 1
        if sum(engine.count_tokens(m) for m in history) > engine.threshold_tokens:
            compacted = engine.compress(history)
            passes += compacted is not history
            history = compacted
    summaries = [m for m in history if str(m.get("content", "")).startswith("[Context summary]")]
    assert len(summaries) == 1
    text = summaries[0]["content"]
    assert text.count("## Earlier summary") <= 1 and text.count("## Latest user ask") == 1
    assert len(text) <= 4 * engine._summary_tokens(6_000) + 400  # within its share, and
    newest = max(int(n) for n in re.findall(r"module_(\d+)\.py", text))
    assert newest >= turn - 12  # the newest files are the ones kept


def _fold_engine() -> CompressorEngine:
    engine = CompressorEngine({"compression": {"protect_first_n": 1, "protect_last_n": 6}})
    engine.update_model("m", 6_000)
    return engine

"""The auxiliary chat-completions client against a real HTTP server on 127.0.0.1."""

from __future__ import annotations

import json
import threading
from typing import Any

import pytest
from pytest_httpserver import HTTPServer
from werkzeug import Request, Response

from hermes_core.llm import (
    AuxiliaryLLMConfig,
    ChatClient,
    LLMAuthError,
    LLMNetworkError,
    LLMQuotaError,
    LLMResponseError,
)
from tests.servers import MESSAGES, client_for


def completion(text: str) -> dict[str, Any]:
    return {
        "id": "cmpl-1",
        "model": "summariser-1",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": text}}],
        "usage": {"prompt_tokens": 12, "completion_tokens": 3, "total_tokens": 15},
    }


def test_a_completion_returns_text_usage_and_sends_model_key_and_messages(
    httpserver: HTTPServer,
) -> None:
    seen: dict[str, Any] = {}

    def handler(request: Request) -> Response:
        seen["body"] = json.loads(request.data)
        seen["auth"] = request.headers.get("Authorization")
        return Response(json.dumps(completion("the summary")), content_type="application/json")

    httpserver.expect_request("/v1/chat/completions", method="POST").respond_with_handler(handler)
    result = client_for(httpserver).complete(MESSAGES, max_tokens=300, temperature=0.2)
    assert result.text == "the summary"
    assert result.usage["total_tokens"] == 15
    assert seen["auth"] == "Bearer sk-test-123"
    assert seen["body"] == {
        "model": "summariser-1",
        "messages": MESSAGES,
        "max_tokens": 300,
        "temperature": 0.2,
    }


@pytest.mark.parametrize(
    "body",
    ["not json at all", json.dumps({"choices": []}), json.dumps({"choices": [{"message": {}}]})],
)
def test_a_malformed_body_is_a_response_error(httpserver: HTTPServer, body: str) -> None:
    httpserver.expect_request("/v1/chat/completions").respond_with_data(body, status=200)
    with pytest.raises(LLMResponseError) as raised:
        client_for(httpserver).complete(MESSAGES)
    assert httpserver.url_for("/v1") in str(raised.value)


@pytest.mark.parametrize("status", [401, 403])
def test_auth_failures_are_auth_errors_and_not_retried(httpserver: HTTPServer, status: int) -> None:
    httpserver.expect_request("/v1/chat/completions").respond_with_data(
        '{"error": {"message": "invalid api key"}}', status=status
    )
    with pytest.raises(LLMAuthError) as raised:
        client_for(httpserver).complete(MESSAGES)
    assert raised.value.status == status
    assert len(httpserver.log) == 1


def test_a_429_then_success_is_retried(httpserver: HTTPServer) -> None:
    httpserver.expect_ordered_request("/v1/chat/completions").respond_with_data(
        '{"error": "rate limited"}', status=429, headers={"Retry-After": "0"}
    )
    httpserver.expect_ordered_request("/v1/chat/completions").respond_with_json(
        completion("after retry")
    )
    assert client_for(httpserver).complete(MESSAGES).text == "after retry"
    assert len(httpserver.log) == 2


def test_5xx_is_retried_then_reported_as_a_response_error(httpserver: HTTPServer) -> None:
    httpserver.expect_request("/v1/chat/completions").respond_with_data("upstream down", status=503)
    with pytest.raises(LLMResponseError) as raised:
        client_for(httpserver, max_retries=2).complete(MESSAGES)
    assert raised.value.status == 503
    assert len(httpserver.log) == 3


def test_429_after_every_retry_and_exhausted_quota_are_quota_errors(
    httpserver: HTTPServer,
) -> None:
    httpserver.expect_request("/v1/chat/completions").respond_with_data("slow down", status=429)
    with pytest.raises(LLMQuotaError):
        client_for(httpserver, max_retries=1).complete(MESSAGES)
    assert len(httpserver.log) == 2
    httpserver.clear()
    httpserver.expect_request("/v1/chat/completions").respond_with_data(
        '{"error": {"code": "insufficient_quota"}}', status=429
    )
    with pytest.raises(LLMQuotaError):
        client_for(httpserver, max_retries=3).complete(MESSAGES)
    assert len(httpserver.log) == 1


def test_a_server_that_hangs_past_the_timeout_is_a_network_error(httpserver: HTTPServer) -> None:
    # The server answers only once the test lets it: an error raised before that
    # proves the client gave up on its own timeout (no wall-clock timing).
    release = threading.Event()
    answered = threading.Event()

    def hang(request: Request) -> Response:
        release.wait(20)
        answered.set()
        return Response(json.dumps(completion("too late")), content_type="application/json")

    httpserver.expect_request("/v1/chat/completions").respond_with_handler(hang)
    try:
        with pytest.raises(LLMNetworkError, match=r"no complete answer within 0\.5s"):
            client_for(httpserver, timeout_seconds=0.5, max_retries=0).complete(MESSAGES)
        assert not answered.is_set()
    finally:
        release.set()


def test_a_refused_connection_is_a_network_error() -> None:
    config = AuxiliaryLLMConfig(base_url="http://127.0.0.1:9/v1", model="m", timeout_seconds=1)
    with pytest.raises(LLMNetworkError):
        ChatClient(config, env={}).complete(MESSAGES)


def test_no_section_means_no_client() -> None:
    assert AuxiliaryLLMConfig.from_config({}, "compression") is None
    assert (
        AuxiliaryLLMConfig.from_config(
            {"auxiliary": {"compression": {"model": "m"}}}, "compression"
        )
        is None
    )


def test_every_llm_error_is_a_hermes_error() -> None:
    from hermes_core import HermesError
    from hermes_core.llm import LLMError

    for kind in (LLMError, LLMAuthError, LLMNetworkError, LLMQuotaError, LLMResponseError):
        assert issubclass(kind, HermesError)


def test_hermes_agents_auxiliary_keys_load_quietly_and_shape_the_request(
    httpserver: HTTPServer, tmp_path: Any
) -> None:
    from hermes_core import load_config
    from hermes_core.testing import capture_events

    seen: dict[str, Any] = {}

    def handler(request: Request) -> Response:
        seen["body"] = json.loads(request.data)
        seen["auth"] = request.headers.get("Authorization")
        return Response(json.dumps(completion("ok")), content_type="application/json")

    httpserver.expect_request("/v1/chat/completions", method="POST").respond_with_handler(handler)
    path = tmp_path / "config.yaml"
    path.write_text(
        "auxiliary:\n"
        "  compression:\n"
        "    provider: custom\n"
        f"    base_url: {httpserver.url_for('/v1')}\n"
        "    model: summariser-1\n"
        "    api_key: sk-from-hermes-config\n"
        "    timeout: 7\n"
        "    extra_body: {provider: {order: [fast]}}\n"
        "    reasoning_effort: low\n"
        "  vision:\n"
        "    provider: ''\n"
        "    timeout: ''\n",
        encoding="utf-8",
    )
    with capture_events() as events:
        config = load_config(path, env={})
    assert [e for e in events.entries if e["log_level"] == "warning"] == []
    settings = AuxiliaryLLMConfig.from_config(config.data, "compression")
    assert settings is not None and settings.timeout_seconds == 7
    assert ChatClient(settings, env={}).complete(MESSAGES).text == "ok"
    assert seen["body"]["provider"] == {"order": ["fast"]}
    assert seen["body"]["reasoning_effort"] == "low"
    assert seen["body"]["model"] == "summariser-1"
    assert seen["auth"] == "Bearer sk-from-hermes-config"


def test_empty_hermes_keys_mean_unset() -> None:
    from hermes_core import load_config

    section = {"base_url": "", "model": "", "timeout": "", "provider": "", "extra_body": ""}
    config = load_config({"auxiliary": {"compression": section}}, env={}, strict=True)
    assert AuxiliaryLLMConfig.from_config(config.data, "compression") is None

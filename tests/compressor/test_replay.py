"""A long transcript replayed through the host: passes fire at the threshold and build up."""

from __future__ import annotations

import json
from typing import Any

from pytest_httpserver import HTTPServer
from werkzeug import Request, Response

from hermes_core import ContextHost, validate_messages
from hermes_core._tokens import estimate_tokens
from hermes_core.testing._conversations import sample_conversation


def test_a_long_replay_compresses_at_the_threshold_and_updates_the_summary(
    httpserver: HTTPServer,
) -> None:
    prompts: list[str] = []

    def summariser(request: Request) -> Response:
        prompt = json.loads(request.data)["messages"][1]["content"]
        prompts.append(prompt)
        text = f"## Goal\nsummary number {len(prompts)}"
        body = {"choices": [{"message": {"role": "assistant", "content": text}}]}
        return Response(json.dumps(body), content_type="application/json")

    httpserver.expect_request("/v1/chat/completions").respond_with_handler(summariser)
    config = {
        "context": {"engine": "compressor"},
        "compression": {"threshold": 0.5, "protect_first_n": 1, "protect_last_n": 8},
        "auxiliary": {
            "compression": {"base_url": httpserver.url_for("/v1"), "model": "summariser"}
        },
    }
    host = ContextHost.from_config(config, env={})
    host.update_model("main-model", 30_000)
    source = sample_conversation(300)
    messages: list[dict[str, Any]] = [source[0]]
    history: list[tuple[int, int, int]] = []
    for index, message in enumerate(source[1:], start=1):
        messages.append(message)
        if message["role"] != "assistant" or message.get("tool_calls"):
            continue
        usage = estimate_tokens(messages)
        host.record_usage({"prompt_tokens": usage, "completion_tokens": 20, "total_tokens": usage})
        if host.should_compress(usage):
            messages = host.compress(messages, current_tokens=usage)
            history.append((index, usage, estimate_tokens(messages)))
            assert validate_messages(messages) == []
    status = host.status()
    assert len(history) >= 3
    # only once usage crossed 50% of what a request may hold: the window less the reply's
    # reserve (a quarter of 30,000)
    assert host.input_budget_tokens == 22_500
    assert all(usage >= 11_250 for _, usage, _ in history)
    assert all(after < usage for _, usage, after in history)
    assert status["compression_count"] == len(history) == status["passes_compressed"]
    assert len(prompts) == len(history)
    assert "<earlier_summary>" not in prompts[0]
    for number, prompt in enumerate(prompts[1:], start=1):
        assert f"<earlier_summary>\n## Goal\nsummary number {number}\n</earlier_summary>" in prompt

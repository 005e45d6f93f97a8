"""Attacks by the LLM server: answers built to exhaust memory or time, keys echoed back."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import zlib
from pathlib import Path
from typing import Any

import pytest
from pytest_httpserver import HTTPServer
from werkzeug import Request, Response

from hermes_core.llm import AuxiliaryLLMConfig, ChatClient, LLMNetworkError, LLMResponseError
from hermes_core.testing import EventCapture, host_for
from hermes_core.testing._conversations import sample_conversation
from tests.servers import MESSAGES, ChatServer, Trickle, client_for

KEY = "sk-live-QUERYSTRINGKEY1234567890abcdef"


def _gzip_bomb(inflated: int = 1024 * 1024 * 1024) -> bytes:
    """About 1 MB of gzip that inflates to ``inflated`` zero bytes."""
    packer = zlib.compressobj(9, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    block = bytes(1024 * 1024)
    parts = [packer.compress(block) for _ in range(inflated // len(block))]
    return b"".join([*parts, packer.flush()])


@pytest.fixture(scope="module")
def bomb() -> bytes:
    return _gzip_bomb()


def test_a_gzip_bomb_is_refused_without_inflating_it(bomb: bytes) -> None:
    reply = (200, {"Content-Type": "application/json", "Content-Encoding": "gzip"}, bomb)
    with ChatServer(reply=lambda body: reply) as server:
        script = textwrap.dedent(
            f"""
            from hermes_core.llm import AuxiliaryLLMConfig, ChatClient, LLMResponseError
            config = AuxiliaryLLMConfig(base_url={server.url!r}, model="m", timeout_seconds=120)
            client = ChatClient(config, env={{}})
            try:
                client.complete([{{"role": "user", "content": "hi"}}])
            except LLMResponseError as exc:
                print("refused:", exc)
            # VmHWM: this process's own peak. ru_maxrss would also count the pytest process
            # it was forked from (Linux keeps the pre-exec peak), which grows with the suite
            with open("/proc/self/status") as status:
                print(next(line.split()[1] for line in status if line.startswith("VmHWM:")))
            """
        )
        done = subprocess.run(
            [sys.executable, "-c", script], capture_output=True, text=True, timeout=120
        )
    assert done.returncode == 0, done.stderr
    refused, peak_kb = done.stdout.strip().splitlines()
    assert "over 8 MiB once decoded" in refused
    assert int(peak_kb) < 150 * 1024  # the bomb inflates to 1 GiB; RSS stays near start-up


def test_an_api_key_in_the_base_urls_query_string_is_in_no_event(logs: EventCapture) -> None:
    reply = (401, {"Content-Type": "application/json"}, b'{"error": "bad key"}')
    with ChatServer(reply=lambda body: reply) as server:
        config = {
            "auxiliary": {"compression": {"base_url": f"{server.url}?api_key={KEY}", "model": "m"}}
        }
        host = host_for_compressor(config)
        host.update_model("m", 4_000)
        host.compress(sample_conversation(40), force=True)
    assert logs.named("compressor.summary_aborted")
    assert KEY[8:24] not in json.dumps(logs.entries, default=str)


def host_for_compressor(config: dict[str, Any]) -> Any:
    from hermes_compressor import CompressorEngine

    return host_for(CompressorEngine, "compressor", config)


def _replay_against_a_refusing_server(
    home: Path, query: str, *options: str
) -> subprocess.CompletedProcess[str]:
    """``hermes-context [options] replay`` with the auxiliary LLM at a server that answers
    401 to everything, its base URL carrying ``query``."""
    reply = (401, {"Content-Type": "application/json"}, b'{"error": "bad key"}')
    with ChatServer(reply=lambda body: reply) as server:
        (home / "config.yaml").write_text(
            f"auxiliary:\n  compression:\n    base_url: {server.url}?{query}\n    model: m\n",
            encoding="utf-8",
        )
        env = {**os.environ, "HERMES_HOME": str(home)}
        env.pop("HERMES_CONFIG", None)
        return subprocess.run(
            [sys.executable, "-m", "hermes_core", *options, "replay", "--context-length", "4000"],
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
        )


def test_replay_logs_in_json_carry_no_key_from_the_query_string(tmp_path: Path) -> None:
    done = _replay_against_a_refusing_server(tmp_path, f"api_key={KEY}", "--log-format", "json")
    assert "summary_aborted" in done.stderr
    assert KEY[8:24] not in done.stdout + done.stderr


def test_a_malformed_megabyte_answer_is_quoted_without_redacting_all_of_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from hermes_core import _redaction as redaction

    redacted: list[int] = []
    whole = redaction.redact

    def counting(text: str, work: Any = None) -> str:
        redacted.append(len(text))
        return whole(text, work)

    monkeypatch.setattr(redaction, "redact", counting)
    body = b"a-" * 500_000  # the text that made redaction quadratic
    reply = (200, {"Content-Type": "application/json"}, body)
    with ChatServer(reply=lambda request: reply) as server:
        client = ChatClient(AuxiliaryLLMConfig(base_url=server.url, model="m"), env={})
        with pytest.raises(LLMResponseError, match="malformed") as caught:
            client.complete([{"role": "user", "content": "hi"}])
    assert len(str(caught.value)) < 400
    # the answer was quoted (redaction ran), over what is quoted: never the megabyte
    assert redacted and sum(redacted) < 20_000


SECRET = "sk-live-0123456789abcdefghijSECRET"


def test_credentials_in_base_url_never_reach_an_error(httpserver: HTTPServer) -> None:
    httpserver.expect_request("/v1/chat/completions").respond_with_data("no", status=500)
    url = httpserver.url_for("/v1").replace("http://", "http://admin:hunter2@")
    client = client_for(httpserver, base_url=url, max_retries=0)
    with pytest.raises(LLMResponseError) as raised:
        client.complete([{"role": "user", "content": "hi"}])
    assert "hunter2" not in str(raised.value) and "admin" not in str(raised.value)
    assert httpserver.url_for("/v1") in str(raised.value)


def test_a_server_echoing_the_authorization_header_is_quoted_redacted_and_short(
    httpserver: HTTPServer,
) -> None:
    def echo(request: Request) -> Response:
        body = f"bad request; you sent Authorization: {request.headers['Authorization']}"
        return Response(body + " padding" * 500, status=400)

    httpserver.expect_request("/v1/chat/completions").respond_with_handler(echo)
    client = ChatClient(
        AuxiliaryLLMConfig(httpserver.url_for("/v1"), "m", api_key_value=SECRET, max_retries=0),
        env={},
    )
    with pytest.raises(LLMResponseError) as raised:
        client.complete([{"role": "user", "content": "hi"}])
    text = str(raised.value)
    assert SECRET not in text and "0123456789abcdef" not in text
    assert "[REDACTED]" in text and len(text) < 400


def test_a_redirect_is_reported_as_one_with_where_it_pointed(httpserver: HTTPServer) -> None:
    httpserver.expect_request("/v1/chat/completions").respond_with_data(
        "", status=307, headers={"Location": "https://user:pw@elsewhere.invalid/v1/chat"}
    )
    client = client_for(httpserver, max_retries=0)
    with pytest.raises(LLMResponseError) as raised:
        client.complete([{"role": "user", "content": "hi"}])
    text = str(raised.value)
    assert "HTTP 307 redirect to https://elsewhere.invalid/v1/chat" in text
    assert "redirects are not followed" in text and "pw@" not in text


def test_the_timeout_bounds_the_whole_request_not_each_read() -> None:
    trickle = Trickle()
    try:
        config = AuxiliaryLLMConfig(trickle.url, "m", timeout_seconds=1.0, max_retries=0)
        with pytest.raises(LLMNetworkError, match="no complete answer within 1s"):
            ChatClient(config, env={}).complete(MESSAGES)
        assert not trickle.finished.is_set()  # the server was still sending when we gave up
        assert trickle.sent < trickle.chunks
    finally:
        trickle.close()


def test_a_pass_deadline_caps_the_request() -> None:
    import time

    trickle = Trickle()
    try:
        config = AuxiliaryLLMConfig(trickle.url, "m", timeout_seconds=600, max_retries=0)
        with pytest.raises(LLMNetworkError):
            ChatClient(config, env={}).complete(MESSAGES, deadline=time.monotonic() + 1.0)
        assert not trickle.finished.is_set()
    finally:
        trickle.close()


def test_replay_output_carries_no_value_of_a_credential_shaped_query_key(tmp_path: Path) -> None:
    from tests.attacks.test_redaction import UNLISTED_KEYS, _secret_for

    query = "&".join(f"{key}={_secret_for(key)}" for key in UNLISTED_KEYS)
    done = _replay_against_a_refusing_server(tmp_path, query)
    assert "summary" in done.stderr
    assert "Zq" not in done.stdout + done.stderr

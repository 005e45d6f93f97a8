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

from hermes_core.llm import AuxiliaryLLMConfig, ChatClient, LLMResponseError
from hermes_core.testing import EventCapture, host_for
from hermes_core.testing.conversations import sample_conversation
from tests.servers import ChatServer

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
            import resource
            from hermes_core.llm import AuxiliaryLLMConfig, ChatClient, LLMResponseError
            client = ChatClient(AuxiliaryLLMConfig(base_url={server.url!r}, model="m"), env={{}})
            try:
                client.complete([{{"role": "user", "content": "hi"}}])
            except LLMResponseError as exc:
                print("refused:", exc)
            print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
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


def test_replay_logs_in_json_carry_no_key_from_the_query_string(tmp_path: Path) -> None:
    reply = (401, {"Content-Type": "application/json"}, b'{"error": "bad key"}')
    with ChatServer(reply=lambda body: reply) as server:
        (tmp_path / "config.yaml").write_text(
            f"auxiliary:\n  compression:\n    base_url: {server.url}?api_key={KEY}\n    model: m\n",
            encoding="utf-8",
        )
        env = {**os.environ, "HERMES_HOME": str(tmp_path)}
        env.pop("HERMES_CONFIG", None)
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "hermes_core",
                "--log-format",
                "json",
                "replay",
                "--context-length",
                "4000",
            ],
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
        )
    assert "summary_aborted" in done.stderr
    assert KEY[8:24] not in done.stdout + done.stderr


def test_a_malformed_megabyte_answer_is_quoted_without_redacting_all_of_it() -> None:
    body = b"a-" * 500_000  # the text that made redaction quadratic
    reply = (200, {"Content-Type": "application/json"}, body)
    with ChatServer(reply=lambda request: reply) as server:
        client = ChatClient(AuxiliaryLLMConfig(base_url=server.url, model="m"), env={})
        with pytest.raises(LLMResponseError, match="malformed") as caught:
            client.complete([{"role": "user", "content": "hi"}])
    assert len(str(caught.value)) < 400

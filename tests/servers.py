"""Servers on 127.0.0.1 for the LLM client's tests, some misbehaving on purpose."""

from __future__ import annotations

import contextlib
import http.server
import json
import socket
import threading
from collections.abc import Callable
from typing import Any

from pytest_httpserver import HTTPServer

from hermes_core.llm import AuxiliaryLLMConfig, ChatClient

__all__ = ["MESSAGES", "ChatServer", "Trickle", "client_for"]

#: A one-message conversation to send.
MESSAGES = [{"role": "user", "content": "summarise this"}]


class Trickle:
    """A server on 127.0.0.1 that answers with headers, then one byte every 0.2 s."""

    def __init__(self, chunks: int = 150) -> None:
        self.server = socket.create_server(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.server.getsockname()[1]}/v1"
        self.sent = 0
        self.finished = threading.Event()
        self.stop = threading.Event()
        self.chunks = chunks
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        connection, _ = self.server.accept()
        with connection:
            connection.recv(65536)
            connection.sendall(
                b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                + f"Content-Length: {self.chunks}\r\n\r\n".encode()
            )
            try:
                while self.sent < self.chunks and not self.stop.wait(0.2):
                    connection.sendall(b" ")
                    self.sent += 1
            except OSError:
                pass  # the client hung up: what the test wants
        self.finished.set()

    def close(self) -> None:
        self.stop.set()
        self.server.close()


class ChatServer:
    """An OpenAI-compatible chat-completions server on 127.0.0.1 that records each request
    (its JSON body and headers) and answers with ``answer``, or with ``reply`` when set:
    ``reply(body) -> (status, headers, raw bytes)``."""

    def __init__(
        self,
        answer: str = "SUMMARY",
        reply: Callable[[dict[str, Any]], tuple[int, dict[str, str], bytes]] | None = None,
    ) -> None:
        self.requests: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []
        owner = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", "0"))
                body = json.loads(self.rfile.read(length) or b"{}")
                owner.requests.append(body)
                owner.headers.append(dict(self.headers))
                if reply is not None:
                    status, headers, raw = reply(body)
                else:
                    status, headers = 200, {"Content-Type": "application/json"}
                    raw = json.dumps(
                        {
                            "model": "fake",
                            "choices": [{"index": 0, "message": {"content": answer}}],
                            "usage": {"prompt_tokens": 1, "completion_tokens": 1},
                        }
                    ).encode()
                self.send_response(status)
                for key, value in headers.items():
                    self.send_header(key, value)
                self.send_header("Content-Length", str(len(raw)))
                self.end_headers()
                with contextlib.suppress(OSError):  # the client gave up: what some tests want
                    self.wfile.write(raw)

            def log_message(self, *args: Any) -> None:
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()

    def __enter__(self) -> ChatServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def client_for(server: HTTPServer, **overrides: Any) -> ChatClient:
    settings = {
        "base_url": server.url_for("/v1"),
        "model": "summariser-1",
        "api_key_env": "TEST_LLM_KEY",
        "timeout_seconds": 2.0,
        "max_retries": 2,
        **overrides,
    }
    config = AuxiliaryLLMConfig.from_config({"auxiliary": {"compression": settings}}, "compression")
    assert config is not None
    return ChatClient(config, env={"TEST_LLM_KEY": "sk-test-123"}, backoff_seconds=0.01)


class Summariser:
    """A threaded chat server that answers request ``n`` with ``summary n``, holding the
    requests named in ``held`` until ``release`` is set (others are answered meanwhile)."""

    def __init__(self, held: set[int]) -> None:
        self.requests: list[dict[str, Any]] = []
        self.held = held
        self.release = threading.Event()
        self.arrived = threading.Semaphore(0)
        self._lock = threading.Lock()
        self.server = ChatServer(reply=self.answer)
        config = AuxiliaryLLMConfig(
            base_url=self.server.url, model="s", timeout_seconds=60, max_retries=0
        )
        self.llm = ChatClient(config, env={})

    def answer(self, body: dict[str, Any]) -> tuple[int, dict[str, str], bytes]:
        with self._lock:
            self.requests.append(body)
            number = len(self.requests)
        self.arrived.release()
        if number in self.held:
            assert self.release.wait(60)
        text = f"summary {number}"
        raw = json.dumps({"choices": [{"message": {"role": "assistant", "content": text}}]})
        return 200, {"Content-Type": "application/json"}, raw.encode()

    def close(self) -> None:
        self.release.set()
        self.server.close()

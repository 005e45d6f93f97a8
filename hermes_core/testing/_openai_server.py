"""A fake OpenAI-compatible server on 127.0.0.1, to test an agent built on a framework
without a model: Chat Completions and the Responses API, with tool calls, and a record of
every request, so a test can check what reached the model.

Its model follows one script: a user message is answered with a call to the agent's
``lookup`` tool when the request offers one, and a tool's result with text. Requests
to ``aux-model`` (the summariser) get a fixed summary. Prompt tokens are the request's
characters / 4, so a conversation grows until something compacts it. It runs in the
test's process and serves agents in any process, since it is plain HTTP.

.. code-block:: python

    with fake_openai_server() as server:
        run_my_agent(base_url=server.url)
        assert all(r["prompt_tokens"] < 16_000 for r in server.agent_requests())
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

__all__ = ["SUMMARY", "FakeOpenAI", "fake_openai_server"]

#: What the summariser answers, every time.
SUMMARY = "SUMMARY-FAKE: the earlier turns looked up records."


@dataclass
class FakeOpenAI:
    """The server's address and what it was sent."""

    url: str = ""
    #: One entry per request: ``path``, ``body``, ``text`` (the request as JSON text),
    #: ``prompt_tokens``.
    seen: list[dict[str, Any]] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def agent_requests(self) -> list[dict[str, Any]]:
        """The requests of the agent's model (not the summariser's)."""
        with self.lock:
            return [s for s in self.seen if s["body"].get("model") != "aux-model"]

    def summariser_requests(self) -> list[dict[str, Any]]:
        with self.lock:
            return [s for s in self.seen if s["body"].get("model") == "aux-model"]


def _offers_lookup(tools: list[dict[str, Any]]) -> bool:
    names = {t.get("name") or (t.get("function") or {}).get("name") for t in tools or []}
    return "lookup" in names


def _chat(body: dict[str, Any], number: int) -> tuple[dict[str, Any], str]:
    """A Chat Completions message and finish reason for ``body``."""
    messages = body.get("messages") or [{}]
    last = messages[-1]
    if body.get("model") == "aux-model":
        return {"role": "assistant", "content": SUMMARY}, "stop"
    if last.get("role") == "user" and _offers_lookup(body.get("tools") or []):
        call = {
            "id": f"call_{number}",
            "type": "function",
            "function": {"name": "lookup", "arguments": json.dumps({"key": f"k{number}"})},
        }
        return {"role": "assistant", "content": None, "tool_calls": [call]}, "tool_calls"
    return {"role": "assistant", "content": f"Answer {number}: done. " + "detail " * 40}, "stop"


def _responses(body: dict[str, Any], number: int) -> list[dict[str, Any]]:
    """Responses API output items for ``body``."""
    items = body.get("input")
    last = items[-1] if isinstance(items, list) and items else {"role": "user"}
    is_user = isinstance(last, dict) and last.get("role") == "user"
    if is_user and _offers_lookup(body.get("tools") or []):
        return [
            {
                "type": "function_call",
                "id": f"fc_{number}",
                "call_id": f"call_{number}",
                "name": "lookup",
                "arguments": json.dumps({"key": f"k{number}"}),
                "status": "completed",
            }
        ]
    text = f"Answer {number}: done. " + "detail " * 40
    return [
        {
            "type": "message",
            "id": f"msg_{number}",
            "role": "assistant",
            "status": "completed",
            "content": [{"type": "output_text", "text": text, "annotations": []}],
        }
    ]


class JSONHandler(BaseHTTPRequestHandler):
    """A quiet HTTP/1.1 handler that reads and answers JSON: the base of fake model
    servers (this one, and the streaming one the end-to-end tests drive Hermes with)."""

    protocol_version = "HTTP/1.1"

    def log_message(self, *args: object) -> None:
        pass

    def read_json(self) -> dict[str, Any]:
        """The request's body."""
        body: dict[str, Any] = json.loads(
            self.rfile.read(int(self.headers.get("Content-Length", 0))) or b"{}"
        )
        return body

    def send_json(self, payload: dict[str, Any]) -> None:
        """A 200 answer holding ``payload``."""
        data = json.dumps(payload).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


class _Handler(JSONHandler):
    state: FakeOpenAI

    def do_GET(self) -> None:
        self.send_json({"object": "list", "data": [{"id": "test-model", "object": "model"}]})

    def do_POST(self) -> None:
        body = self.read_json()
        text = json.dumps(body.get("messages") or body.get("input") or [])
        text += json.dumps(body.get("instructions") or "")
        prompt = len(text) // 4
        with self.state.lock:
            self.state.seen.append(
                {"path": self.path, "body": body, "text": text, "prompt_tokens": prompt}
            )
            number = len(self.state.seen)
        model = body.get("model", "")
        if self.path.endswith("/responses"):
            output = _responses(body, number)
            completion = len(json.dumps(output)) // 4
            self.send_json(
                {
                    "id": f"resp_{number}",
                    "object": "response",
                    "created_at": 0,
                    "model": model,
                    "status": "completed",
                    "output": output,
                    "parallel_tool_calls": True,
                    "tool_choice": "auto",
                    "tools": [],
                    "usage": {
                        "input_tokens": prompt,
                        "output_tokens": completion,
                        "total_tokens": prompt + completion,
                        "input_tokens_details": {"cached_tokens": 0, "cache_write_tokens": 0},
                        "output_tokens_details": {"reasoning_tokens": 0},
                    },
                }
            )
            return
        message, finish = _chat(body, number)
        completion = len(json.dumps(message)) // 4
        self.send_json(
            {
                "id": f"chatcmpl-{number}",
                "object": "chat.completion",
                "created": 0,
                "model": model,
                "choices": [{"index": 0, "message": message, "finish_reason": finish}],
                "usage": {
                    "prompt_tokens": prompt,
                    "completion_tokens": completion,
                    "total_tokens": prompt + completion,
                },
            }
        )


@contextmanager
def serving_on_localhost(handler: type[BaseHTTPRequestHandler]) -> Iterator[str]:
    """``handler`` served on a free port of 127.0.0.1 for the block; yields the base URL
    (``http://127.0.0.1:PORT/v1``)."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/v1"
    finally:
        server.shutdown()
        server.server_close()


@contextmanager
def fake_openai_server() -> Iterator[FakeOpenAI]:
    """A :class:`FakeOpenAI` on a free port of 127.0.0.1 for the block."""
    state = FakeOpenAI()
    with serving_on_localhost(type("Handler", (_Handler,), {"state": state})) as url:
        state.url = url
        yield state

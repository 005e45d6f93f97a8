"""End to end inside the real Hermes Agent 0.19: our lcm through Hermes' own code, and the
Hermes-style fixture plugin loaded by Hermes itself.

A virtual environment with ``hermes-agent==0.19.0`` (and its dependencies)
is made once and kept in ``$HERMES_CONTEXT_E2E_CACHE`` (default
``~/.cache/hermes-context/e2e``); each run installs the wheels built from this
checkout into it. Hermes talks to an OpenAI-compatible server on 127.0.0.1
run by the test; no model and no other network is used. The narrowest real
path: ``run_agent.AIAgent(...)`` runs Hermes' engine selection
(``agent_init.init_agent``), ``agent._compress_context`` is Hermes'
compression entry point, and ``agent.tool_executor.execute_tool_calls_sequential``
dispatches a tool call the way a model's would be.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import threading
import venv
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, ClassVar

import pytest

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
HERMES = "hermes-agent==0.19.0"
FIXTURE = ROOT / "tests" / "fixtures" / "hermes_plugins" / "tidy-context"
FACT = "The release train leaves from platform nine, every Thursday."

#: Runs inside the Hermes venv: build an agent, compress 300 messages, dispatch a tool.
PROBE = """
import json, sys
from types import SimpleNamespace
from run_agent import AIAgent
from agent.tool_executor import execute_tool_calls_sequential
from hermes_core.testing.conversations import sample_conversation

base_url, tool, query, fact = sys.argv[1:5]
agent = AIAgent(base_url=base_url, api_key="sk-test", provider="custom", model="test-model",
                quiet_mode=True, session_id="e2e-session")
engine = agent.context_compressor
conversation = sample_conversation(75, facts={3: fact})[1:]  # the system prompt is kept apart
compressed, _ = agent._compress_context(conversation, "You are a coding agent.", force=True)
call = SimpleNamespace(id="call_e2e", type="function",
                       function=SimpleNamespace(name=tool, arguments=json.dumps({"query": query})))
messages = list(compressed)
execute_tool_calls_sequential(agent, SimpleNamespace(content=None, tool_calls=[call]),
                              messages, "task-e2e")
print(json.dumps({
    "engine_class": type(engine).__module__ + "." + type(engine).__name__,
    "engine_name": engine.name,
    "tools": sorted(t["function"]["name"] for t in agent.tools),
    "before": len(conversation),
    "after": len(compressed),
    "fact_still_raw": any(m.get("content") == fact for m in compressed),
    "compressed": [str(m.get("content"))[:200] for m in compressed],
    "tool_answer": messages[-1].get("content"),
    "status": engine.get_status(),
}))
"""


class _Completions(BaseHTTPRequestHandler):
    seen: ClassVar[list[dict[str, Any]]] = []

    def log_message(self, *args: object) -> None:
        pass

    def _send(self, payload: dict[str, Any]) -> None:
        body = json.dumps(payload).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self) -> None:  # model metadata: a window Hermes accepts
        self._send({"object": "list", "data": [{"id": "test-model", "context_length": 128000}]})

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length", 0))
        request = json.loads(self.rfile.read(length) or b"{}")
        self.seen.append({"path": self.path, "body": request})
        text = "SUMMARY-E2E: earlier turns were about reading modules."
        self._send(
            {
                "id": "cmpl-e2e",
                "object": "chat.completion",
                "model": request.get("model", ""),
                "choices": [
                    {
                        "index": 0,
                        "message": {"role": "assistant", "content": text},
                        "finish_reason": "stop",
                    }
                ],
                "usage": {"prompt_tokens": 50, "completion_tokens": 10, "total_tokens": 60},
            }
        )


@pytest.fixture(scope="module")
def llm_server() -> Iterator[tuple[str, list[dict[str, Any]]]]:
    seen: list[dict[str, Any]] = []
    handler = type("Handler", (_Completions,), {"seen": seen})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/v1", seen
    finally:
        server.shutdown()
        server.server_close()


def run(*args: str | Path, env: dict[str, str] | None = None) -> str:
    result = subprocess.run(
        [str(a) for a in args], capture_output=True, text=True, env=env, timeout=900
    )
    assert result.returncode == 0, f"{args}\nstdout:\n{result.stdout}\nstderr:\n{result.stderr}"
    return result.stdout


@pytest.fixture(scope="module")
def hermes_python(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Python of the cached Hermes Agent venv, with this checkout's wheels installed."""
    cache = Path(
        os.environ.get("HERMES_CONTEXT_E2E_CACHE", Path.home() / ".cache/hermes-context/e2e")
    )
    home = cache / "hermes-agent-0.19.0"
    python = home / "bin" / "python"
    marker = home / ".complete"
    if not marker.is_file():
        shutil.rmtree(home, ignore_errors=True)
        venv.create(home, with_pip=True)
        run(python, "-m", "pip", "install", "-q", HERMES)
        marker.write_text(HERMES, encoding="utf-8")
    wheels = tmp_path_factory.mktemp("wheels")
    for project in (ROOT, ROOT / "hermes_lcm_example"):
        run(sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", wheels, project)
    built = sorted(str(w) for w in wheels.glob("*.whl"))
    run(python, "-m", "pip", "install", "-q", *built)  # our dependencies, Hermes' pins kept
    run(python, "-m", "pip", "install", "-q", "--no-deps", "--force-reinstall", *built)
    return python


def probe(python: Path, home: Path, base_url: str, tool: str, query: str) -> dict[str, Any]:
    env = {
        "PATH": os.environ.get("PATH", ""),
        "HOME": str(home.parent),
        "HERMES_HOME": str(home),
        "NO_COLOR": "1",
    }
    out = run(python, "-c", PROBE, base_url, tool, query, FACT, env=env)
    result: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
    return result


def hermes_home(tmp_path: Path, base_url: str, engine: str, enabled: str, extra: str = "") -> Path:
    home = tmp_path / "hermes-home"
    home.mkdir()
    (home / "config.yaml").write_text(
        f"model:\n  default: test-model\n  provider: custom\n  base_url: {base_url}\n"
        "  context_length: 128000\n"
        f"plugins:\n  enabled: [{enabled}]\n"
        f"context:\n  engine: {engine}\n"
        "auxiliary:\n  compression:\n    provider: custom\n"
        f"    base_url: {base_url}\n    model: aux-model\n    api_key: sk-test\n" + extra,
        encoding="utf-8",
    )
    return home


def test_hermes_selects_our_lcm_compresses_300_messages_and_dispatches_its_tool(
    tmp_path: Path, hermes_python: Path, llm_server: tuple[str, list[dict[str, Any]]]
) -> None:
    base_url, seen = llm_server
    seen.clear()
    home = hermes_home(
        tmp_path,
        base_url,
        "lcm",
        "hermes-context",
        "lcm:\n  threshold: 0.1\n  fresh_tail_messages: 8\n",
    )
    result = probe(hermes_python, home, base_url, "lcm_grep", "platform nine")
    # Hermes' own selection took the adapter our plugin registered, deep-copied per agent
    assert result["engine_class"] == "hermes_core.hermes_agent.adapter.HermesContextAdapter"
    assert result["engine_name"] == "lcm"
    assert {"lcm_grep", "lcm_describe", "lcm_expand"} <= set(result["tools"])
    # Hermes' compression entry point ran lcm: 300 messages folded, the fact with them
    assert result["before"] == 300 and 0 < result["after"] < 50
    assert not result["fact_still_raw"]
    assert any("SUMMARY-E2E" in text for text in result["compressed"])
    summaries = [s for s in seen if s["body"].get("model") == "aux-model"]
    assert summaries  # written by Hermes' call_llm against its auxiliary.compression
    # a tool call dispatched by Hermes' executor brings the folded fact back
    assert FACT in result["tool_answer"]
    assert result["status"]["stored_messages"] == 300
    assert (home / "lcm" / "lcm.db").is_file()


def test_the_hermes_style_fixture_plugin_runs_inside_hermes_as_it_does_on_our_host(
    tmp_path: Path, hermes_python: Path, llm_server: tuple[str, list[dict[str, Any]]]
) -> None:
    base_url, seen = llm_server
    seen.clear()
    home = hermes_home(tmp_path, base_url, "tidy", "tidy-context")
    shutil.copytree(FIXTURE, home / "plugins" / "tidy-context")
    result = probe(hermes_python, home, base_url, "tidy_search", "platform nine")
    assert result["engine_name"] == "tidy"
    assert result["engine_class"].endswith(".engine.TidyEngine")  # Hermes' copy of it
    assert "tidy_search" in result["tools"]
    assert result["after"] < result["before"] == 300
    assert any(text.startswith("[tidy summary] SUMMARY-E2E") for text in result["compressed"])
    assert FACT in result["tool_answer"]
    assert (home / "tidy.db").is_file()

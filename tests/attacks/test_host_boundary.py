"""Attacks through the host's boundary: message shapes and engine answers built to break
the agent (deep nesting, cycles)."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from hermes_core import ContextEngine, ContextHost
from hermes_core.testing import host_for


def _nested(depth: int) -> dict[str, Any]:
    value: dict[str, Any] = {"leaf": "bottom"}
    for _ in range(depth - 1):
        value = {"down": value}
    return value


def _deep_call(depth: int) -> dict[str, Any]:
    call = {"id": "c1", "type": "function", "function": {"name": "f", "arguments": _nested(depth)}}
    return {"role": "assistant", "content": None, "tool_calls": [call]}


@pytest.mark.parametrize("depth", [700, 5_000])
def test_deep_nesting_never_stops_a_session_from_being_stored(
    make_lcm_host: Callable[..., ContextHost], depth: int
) -> None:
    host = make_lcm_host()
    history: list[dict[str, Any]] = [{"role": "user", "content": "start"}]
    history += [_deep_call(depth), {"role": "tool", "tool_call_id": "c1", "content": "done"}]
    host.turn_complete(history)
    for n in range(3):
        history += [{"role": "user", "content": f"later turn {n} mentions okapi"}]
        host.turn_complete(history)
    assert host.status()["hook_failures"] == 0
    found = json.loads(host.handle_tool_call("lcm_grep", {"query": "okapi"}))
    assert len(found["results"]) == 3


class Cyclic(ContextEngine):
    """Answers select_context and compress with a message that contains itself."""

    @property
    def name(self) -> str:
        return "cyclic"

    def update_from_response(self, usage: dict[str, Any]) -> None:
        pass

    def should_compress(self, prompt_tokens: int | None = None) -> bool:
        return True

    def _looped(self) -> list[dict[str, Any]]:
        part: dict[str, Any] = {"type": "text", "text": "x"}
        part["self"] = part
        return [{"role": "user", "content": [part]}]

    def compress(self, messages: Any, current_tokens: Any = None, focus_topic: Any = None) -> Any:
        return self._looped()

    def select_context(self, request_messages: Any, **kwargs: Any) -> Any:
        return self._looped()


def test_an_engine_answer_that_contains_itself_never_reaches_the_agent() -> None:
    host = host_for(Cyclic)
    request = [{"role": "user", "content": "hello " * 100}]
    assert host.select_context(request) is request
    assert host.compress(request) is request
    status = host.status()
    assert status["select_context_fallbacks"] == 1 and status["pass_invalid_results"] == 1
    json.dumps(host.select_context(request))  # what the agent sends can be written


class Hanging(ContextEngine):
    """Hangs in select_context until the test lets it go."""

    release = threading.Event()

    @property
    def name(self) -> str:
        return "hanging"

    def update_from_response(self, usage: dict[str, Any]) -> None:
        pass

    def should_compress(self, prompt_tokens: int | None = None) -> bool:
        return False

    def compress(self, messages: Any, current_tokens: Any = None, focus_topic: Any = None) -> Any:
        return messages

    def select_context(self, request_messages: Any, **kwargs: Any) -> Any:
        self.release.wait(60)
        return None


def test_one_hosts_hung_engine_never_starves_another_host_in_the_process(
    make_lcm_host: Callable[..., ContextHost],
) -> None:
    hung = host_for(Hanging, config={"compression": {"hook_timeout_seconds": 0.05}})
    healthy = make_lcm_host()
    try:
        request = [{"role": "user", "content": "hello"}]
        for _ in range(100):
            assert hung.select_context(request) is request
        healthy.start_session("s")
        healthy.turn_complete([{"role": "user", "content": "healthy pangolin"}])
        names = {entry["function"]["name"] for entry in healthy.tool_schemas()}
        assert {"lcm_grep", "lcm_describe", "lcm_expand", "lcm_instructions"} == names
        found = json.loads(healthy.handle_tool_call("lcm_grep", {"query": "pangolin"}))
        assert len(found["results"]) == 1
        assert healthy.status()["hook_timeouts"] == 0
    finally:
        Hanging.release.set()


#: A host with LCM built, used once, then the process forks: the child goes on with the
#: host it inherited (a server that forks its workers after start-up), and says how many
#: of its messages the store holds, and how many bounded calls timed out.
_FORKED_CHILD = """
import json, os, sys
from hermes_engine_lcm import LCMEngine
from hermes_core.testing import host_for

host = host_for(LCMEngine, "lcm", {"lcm": json.loads(sys.argv[1])},
                env={"HERMES_HOME": sys.argv[2]})
host.update_model("m", 100_000)
host.start_session("parent")
host.turn_complete([{"role": "user", "content": "the parent's turn"}])
pid = os.fork()
if pid == 0:
    history = []
    for n in range(13):
        history.append({"role": "user", "content": f"child turn {n}"})
        host.turn_complete(history, session_id="child")
    found = json.loads(host.handle_tool_call("lcm_grep", {"query": "child", "limit": 50},
                                        session_id="child"))
    print(json.dumps([len(found["results"]), host.status()["hook_timeouts"]]), flush=True)
    os._exit(0)
_, status = os.waitpid(pid, 0)
host.turn_complete([{"role": "user", "content": "the parent's turn"},
                    {"role": "user", "content": "parent again"}])
found = json.loads(host.handle_tool_call("lcm_grep", {"query": "parent"}))
print(json.dumps([status, len(found["results"])]), flush=True)
host.close()
"""


def test_a_host_built_before_fork_serves_in_the_child_without_waiting(
    tmp_path: Path, lcm_settings: dict[str, Any]
) -> None:
    done = subprocess.run(
        [sys.executable, "-c", _FORKED_CHILD, json.dumps(lcm_settings), str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=600,  # the bug made each of 14 calls wait its 30 s bound: 7 minutes
    )
    assert done.returncode == 0, done.stderr
    child, parent = (json.loads(line) for line in done.stdout.splitlines())
    assert child == [13, 0]  # every message stored, no call timed out
    assert parent == [0, 2]  # the parent is untouched by its child

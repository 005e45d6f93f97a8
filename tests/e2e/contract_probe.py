"""Run inside a Hermes Agent venv (``python contract_probe.py HOME``): each item of Hermes
0.22's context-engine contract tried on our adapter (ours inside this Hermes) and on our
host running a Hermes plugin (a recording engine of this Hermes' base class). Prints one
JSON line: per item, ``adapter`` and ``host`` as true, false, or null (not in this
Hermes' base class). Read by ``tests/e2e/test_hermes_contract.py``."""

from __future__ import annotations

import json
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from agent.context_engine import ContextEngine as Base

HOME = Path(sys.argv[1])
METHODS = (
    "update_from_response", "should_compress", "should_compress_info", "compress",
    "prune_tool_results_only", "select_context", "on_turn_complete", "should_compress_preflight",
    "should_defer_preflight_to_real_usage", "get_automatic_compaction_status_message",
    "has_content_to_compress", "on_session_start", "on_session_end", "on_session_reset",
    "get_tool_schemas", "handle_tool_call", "get_status", "clone_for_agent", "update_model",
)  # fmt: skip
PERSISTED = (
    "<persisted-output>\nOutput too large (182,000 characters). Saved to "
    "/tmp/tool-results/call_7.txt\nPreview:\nline 1\nline 2\n</persisted-output>"
)


def conversation(turns: int = 20) -> list[dict[str, Any]]:
    messages: list[dict[str, Any]] = [{"role": "system", "content": "You are an agent."}]
    for n in range(turns):
        messages.append({"role": "user", "content": f"Turn {n}: look at module {n}. " * 20})
        if n == 3:
            read = {"name": "read_file", "arguments": '{"path": "big.log"}'}
            call = {"id": "call_7", "type": "function", "function": read}
            messages.append({"role": "assistant", "content": None, "tool_calls": [call]})
            messages.append({"role": "tool", "tool_call_id": "call_7", "content": PERSISTED})
        messages.append({"role": "assistant", "content": f"Module {n} looks fine. " * 20})
    return messages


MESSAGES = conversation()
USAGE = {"prompt_tokens": 9_000, "completion_tokens": 100, "total_tokens": 9_100}


def calls(engine: Any) -> dict[str, Any]:
    """How each method is called by Hermes 0.22 (its arguments), for ``engine``."""
    last = MESSAGES[-1]
    return {
        "update_from_response": lambda: engine.update_from_response(USAGE),
        "should_compress": lambda: engine.should_compress(9_000),
        "should_compress_info": lambda: engine.should_compress_info(9_000),
        "compress": lambda: engine.compress(
            MESSAGES,
            current_tokens=9_000,
            focus_topic="module 3",
            force=True,
            memory_context="The user prefers short answers.",
        ),
        "prune_tool_results_only": lambda: engine.prune_tool_results_only(MESSAGES, 9_000),
        "select_context": lambda: engine.select_context(
            MESSAGES, conversation_messages=MESSAGES, incoming_message=last, budget_tokens=6_000
        ),
        "on_turn_complete": lambda: engine.on_turn_complete(MESSAGES, usage=USAGE),
        "should_compress_preflight": lambda: engine.should_compress_preflight(MESSAGES),
        "should_defer_preflight_to_real_usage": lambda: engine.should_defer_preflight_to_real_usage(
            9_000
        ),
        "get_automatic_compaction_status_message": lambda: (
            engine.get_automatic_compaction_status_message("start", "Compacting context...")
        ),
        "has_content_to_compress": lambda: engine.has_content_to_compress(MESSAGES),
        "on_session_start": lambda: engine.on_session_start(
            "probe", hermes_home=str(HOME), platform="cli", model="test-model"
        ),
        "on_session_end": lambda: engine.on_session_end("probe", MESSAGES),
        "on_session_reset": lambda: engine.on_session_reset(),
        "get_tool_schemas": lambda: engine.get_tool_schemas(),
        "handle_tool_call": lambda: engine.handle_tool_call("lcm_grep", {"query": "module 3"}),
        "get_status": lambda: engine.get_status(),
        "clone_for_agent": lambda: engine.clone_for_agent(),
        "update_model": lambda: engine.update_model(
            "test-model", 128_000, base_url="", api_key="", provider="custom", api_mode=""
        ),
    }


def overrides(engine: Any, name: str) -> bool:
    """Whether Hermes would call ``name`` on ``engine``: its class defines it below Hermes'
    base class (Hermes 0.20 and later skip a hook left at the base class's default)."""
    for klass in type(engine).__mro__:
        if name in vars(klass):
            return klass is not Base
    return False


def adapter_side() -> dict[str, Any]:
    from hermes_core.hermes_agent._adapter import hermes_engine

    (HOME / "config.yaml").write_text("context:\n  engine: lcm\n", encoding="utf-8")
    adapter = hermes_engine(HOME, env={"HERMES_HOME": str(HOME)})
    assert adapter is not None, "lcm is not installed in this venv"
    found: dict[str, Any] = {}
    tried = calls(adapter)
    for name in METHODS:
        if not hasattr(Base, name):
            found[name] = None
            continue
        try:
            tried[name]()
        except Exception as exc:  # a failing call is a "no", named
            found[name] = f"raised {type(exc).__name__}: {exc}"[:200]
            continue
        found[name] = overrides(adapter, name)
    compressed = adapter.compress(MESSAGES, current_tokens=9_000, force=True)
    found["persisted_output"] = any(PERSISTED in str(m.get("content")) for m in compressed) or any(
        "call_7" in str(m) for m in compressed
    )
    found["attempt_claim"] = _holds_attribute(adapter)
    found["pooled_threads"] = _from_other_threads(adapter)
    from hermes_core.hooks._signatures import accepted_keywords

    engine = adapter.host.engine
    offered = {"force": True, "memory_context": "The user prefers short answers."}
    taken = accepted_keywords(engine.compress, offered)
    found["force"] = "force" in taken
    found["memory_context"] = "memory_context" in taken
    return found


def _holds_attribute(engine: Any) -> bool:
    """Hermes 0.22 claims an engine for a pass by setting ``_compression_attempt_generation``
    on it; an engine that cannot hold the attribute runs unguarded."""
    engine._compression_attempt_generation = 3
    return getattr(engine, "_compression_attempt_generation", None) == 3


def _from_other_threads(engine: Any) -> bool:
    """Hermes 0.22 runs a pass on a pooled thread, sessions concurrently: two threads
    compress at once, both get a valid list."""
    barrier = threading.Barrier(2, timeout=600)
    results: list[Any] = []

    def one() -> None:
        barrier.wait()
        results.append(engine.compress(MESSAGES, current_tokens=9_000))

    threads = [threading.Thread(target=one) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(600)
    return len(results) == 2 and all(isinstance(r, list) and r for r in results)


RECORDER = '''
import threading

from agent.context_engine import ContextEngine

CALLS = []
THREADS = []


class Recorder(ContextEngine):
    """Records each hook our host calls, with its keywords."""

    @property
    def name(self):
        return "recorder"

    def _saw(self, hook, **keywords):
        CALLS.append([hook, sorted(k for k, v in keywords.items() if v not in (None, ""))])

    def update_from_response(self, usage):
        self._saw("update_from_response")

    def should_compress(self, prompt_tokens=None):
        self._saw("should_compress")
        return True

    def should_compress_info(self, prompt_tokens=None):
        self._saw("should_compress_info")
        return True, "probe"

    def compress(self, messages, current_tokens=None, focus_topic=None, force=False,
                 memory_context=""):
        self._saw("compress", force=force or None, memory_context=memory_context,
                  focus_topic=focus_topic)
        THREADS.append(threading.get_ident())
        return messages

    def prune_tool_results_only(self, messages, current_tokens=None):
        self._saw("prune_tool_results_only")
        return messages, 0

    def select_context(self, request_messages, *, conversation_messages=None,
                       incoming_message=None, budget_tokens=0):
        self._saw("select_context")
        return request_messages

    def on_turn_complete(self, messages, usage=None):
        self._saw("on_turn_complete")

    def should_compress_preflight(self, messages):
        self._saw("should_compress_preflight")
        return True

    def should_defer_preflight_to_real_usage(self, rough_tokens):
        self._saw("should_defer_preflight_to_real_usage")
        return False

    def get_automatic_compaction_status_message(self, phase, default_message):
        self._saw("get_automatic_compaction_status_message")
        return default_message

    def has_content_to_compress(self, messages):
        self._saw("has_content_to_compress")
        return True

    def on_session_start(self, session_id, **kwargs):
        self._saw("on_session_start")

    def on_session_end(self, session_id, messages):
        self._saw("on_session_end")

    def on_session_reset(self):
        self._saw("on_session_reset")

    def get_tool_schemas(self):
        self._saw("get_tool_schemas")
        return [{"name": "recorder_probe", "description": "A probe.",
                 "parameters": {"type": "object", "properties": {}}}]

    def handle_tool_call(self, name, args, **kwargs):
        self._saw("handle_tool_call")
        return "{}"

    def get_status(self):
        self._saw("get_status")
        return {"engine": "recorder"}

    def clone_for_agent(self):
        self._saw("clone_for_agent")
        return Recorder()

    def update_model(self, model, context_length, base_url="", api_key="", provider="",
                     api_mode=""):
        self._saw("update_model")
        self.context_length = context_length
        self.threshold_tokens = int(context_length * self.threshold_percent)
'''


def host_side() -> dict[str, Any]:
    from hermes_core import ContextHost

    folder = HOME / "host" / "plugins" / "context_engine" / "recorder"
    folder.mkdir(parents=True)
    (folder / "__init__.py").write_text(RECORDER, encoding="utf-8")
    config = folder.parents[2] / "config.yaml"
    config.write_text(
        "context:\n  engine: recorder\nmodel:\n  context_length: 128000\n", encoding="utf-8"
    )
    env = {"HERMES_HOME": str(config.parent)}
    with ContextHost.from_config(config, env=env) as host:
        assert host.engine_name == "recorder", host.status()
        module = sys.modules[type(host.engine.inner).__module__]  # type: ignore[attr-defined]
        drive: dict[str, Callable[[], Any]] = {
            "update_from_response": lambda: host.record_usage(USAGE),
            "should_compress": lambda: host.should_compress(9_000),
            "should_compress_info": lambda: host.should_compress_info(9_000),
            "compress": lambda: host.compress(
                MESSAGES, 9_000, "module 3", True, "The user prefers short answers."
            ),
            "prune_tool_results_only": lambda: host.prune_tool_results(MESSAGES, 9_000),
            "select_context": lambda: host.select_context(MESSAGES, budget_tokens=6_000),
            "on_turn_complete": lambda: host.turn_complete(MESSAGES, usage=USAGE),
            "should_compress_preflight": lambda: host.should_compress_preflight(MESSAGES),
            "should_defer_preflight_to_real_usage": lambda: (
                host.should_defer_preflight_to_real_usage(9_000)
            ),
            "get_automatic_compaction_status_message": lambda: host.compaction_status_message(
                "start", "Compacting context..."
            ),
            "has_content_to_compress": lambda: host.has_content_to_compress(MESSAGES),
            "on_session_start": lambda: host.start_session("probe"),
            "on_session_end": lambda: host.end_session("probe", MESSAGES),
            "on_session_reset": lambda: host.reset_session(),
            "get_tool_schemas": lambda: host.tool_schemas(),
            "handle_tool_call": lambda: host.handle_tool_call("recorder_probe", {}),
            "get_status": lambda: host.status(),
            "clone_for_agent": lambda: host.for_subagent().close(),
            "update_model": lambda: host.update_model("test-model", 128_000),
        }
        found: dict[str, Any] = {}
        for name in METHODS:
            module.CALLS.clear()
            try:
                drive[name]()
            except Exception as exc:
                found[name] = f"raised {type(exc).__name__}: {exc}"[:200]
                continue
            found[name] = any(hook == name for hook, _ in module.CALLS)
        module.CALLS.clear()
        host.compress(MESSAGES, 9_000, None, True, "The user prefers short answers.")
        keywords = {k for hook, ks in module.CALLS if hook == "compress" for k in ks}
        found["force"] = "force" in keywords
        found["memory_context"] = "memory_context" in keywords
        found["pooled_threads"] = (
            bool(module.THREADS) and threading.get_ident() not in module.THREADS
        )
    return found


def main() -> None:
    print(json.dumps({"adapter": adapter_side(), "host": host_side()}))


if __name__ == "__main__":
    main()

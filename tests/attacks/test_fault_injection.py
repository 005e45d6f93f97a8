"""Fault injection: a chaotic engine driven hard through the host, from many threads."""

from __future__ import annotations

import copy
import json
import random
import threading
import time
from typing import Any

from hermes_core import ContextEngine, validate_messages
from hermes_core.testing import host_for, sample_conversation

CALLS = 10_000
THREADS = 8
SESSIONS = 4

GARBAGE: list[Any] = [
    None,
    42,
    "text",
    {"role": "user"},
    [1, 2],
    [{"role": "tool", "tool_call_id": "orphan", "content": "x"}],
    [{"role": "wizard", "content": "x"}],
    object(),
    (True, "reason", "extra"),
    float("nan"),
]


#: What engine code may raise that is not an Exception: all contained off the main thread.
ESCAPES = (SystemExit, GeneratorExit, KeyboardInterrupt)
#: Messages of shapes the fast copy paths must not share with the engine.
ODD_SHAPES: list[dict[str, Any]] = [
    {"role": "user", "content": {"type": "text", "text": "a dict as content"}},
    {"role": "user", "content": "named", "name": {"first": "ada"}},
    {"role": "assistant", "content": None, "refusal": ["no", {"why": "policy"}]},
]


class Chaos(ContextEngine):
    """In every hook, at random: raises (BaseException too), returns garbage, hangs past the
    host's bound, mutates what it was given, or behaves."""

    def __init__(self) -> None:
        self.rng = random.Random(7)
        self.lock = threading.Lock()

    def _roll(self) -> float:
        with self.lock:
            return self.rng.random()

    def _act(self, good: Any, given: list[Any] | None = None, bounded: bool = True) -> Any:
        roll = self._roll()
        if roll < 0.03:
            raise ESCAPES[int(roll * 1000) % len(ESCAPES)]("chaos")
        if bounded and roll < 0.06:
            time.sleep(0.08)  # past the host's bound on this call
        if roll < 0.2:
            raise RuntimeError("chaos")
        if roll < 0.4:
            return GARBAGE[int(roll * 1000) % len(GARBAGE)]
        if roll < 0.5:
            time.sleep(0.001)
        if roll < 0.6 and given:
            for message in given:
                if isinstance(message, dict):
                    message["content"] = "MUTATED"
                    message.pop("tool_calls", None)
            given.reverse()
            return None
        return good

    @property
    def name(self) -> str:
        return "chaos"

    # Chaos answers with anything at all (garbage included): every hook is typed Any.
    def update_from_response(self, usage: Any) -> Any:
        return self._act(None, bounded=False)

    def should_compress(self, prompt_tokens: Any = None) -> Any:
        return self._act(True, bounded=False)

    def should_compress_info(self, prompt_tokens: Any = None) -> Any:
        return self._act((False, "cooldown:60"), bounded=False)

    def compress(self, messages: Any, current_tokens: Any = None, focus_topic: Any = None) -> Any:
        if self._roll() < 0.1:
            time.sleep(0.08)  # past the host's timeout
        return self._act([messages[0], messages[-1]], messages)

    def select_context(
        self,
        request_messages: Any,
        *,
        conversation_messages: Any = None,
        incoming_message: Any = None,
        budget_tokens: Any = 0,
    ) -> Any:
        return self._act(request_messages[-2:], request_messages)

    def on_turn_complete(self, messages: Any, usage: Any = None, **kwargs: Any) -> Any:
        return self._act(None, messages)

    def get_tool_schemas(self) -> Any:
        return self._act([{"name": "chaos_tool", "parameters": {"type": "object"}}])

    def handle_tool_call(self, name: Any, args: Any, **kwargs: Any) -> Any:
        return self._act(json.dumps({"ok": True}), kwargs.get("messages"))

    def get_status(self) -> Any:
        return self._act(super().get_status())

    def on_session_start(self, session_id: Any, **kwargs: Any) -> Any:
        return self._act(None)

    def update_model(
        self,
        model: Any,
        context_length: Any,
        base_url: Any = "",
        api_key: Any = "",
        provider: Any = "",
        api_mode: Any = "",
    ) -> Any:
        super().update_model(model, context_length)
        return self._act(None)


def test_ten_thousand_chaotic_calls_from_eight_threads_never_hurt_the_agent() -> None:
    host = host_for(
        Chaos,
        config={"compression": {"context_timeout_seconds": 0.05, "hook_timeout_seconds": 0.05}},
    )
    histories = {f"s{i}": [*sample_conversation(6 + i), *ODD_SHAPES] for i in range(SESSIONS)}
    snapshots = copy.deepcopy(histories)
    incoming = {"role": "user", "content": "next?"}
    escaped: list[BaseException] = []
    invalid: list[str] = []
    counts = [0] * THREADS

    def drive(worker: int) -> None:
        rng = random.Random(worker)
        session = f"s{worker % SESSIONS}"
        history = histories[session]
        try:
            for step in range(CALLS // THREADS):
                request = [*history, incoming]
                kind = step % 10
                if kind == 0:
                    host.record_usage({"prompt_tokens": rng.randint(0, 10**6)})
                    assert isinstance(host.should_compress(rng.randint(0, 10**6)), bool)
                elif kind == 1:
                    decision, reason = host.should_compress_info(5)
                    assert isinstance(decision, bool) and (
                        reason is None or isinstance(reason, str)
                    )
                elif kind in (2, 3, 4):
                    result = host.select_context(
                        request,
                        conversation_messages=history,
                        incoming_message=incoming,
                        budget_tokens=1000,
                    )
                    if result is not request and validate_messages(result):
                        invalid.append(f"select_context returned {result!r:.80}")
                elif kind == 5 and step % 50 == 5:
                    result = host.compress(history, session_id=session)
                    # the agent's own odd list comes back as it is; anything else must be valid
                    if result is not history and validate_messages(result):
                        invalid.append(f"compress returned {result!r:.80}")
                elif kind == 6:
                    host.turn_complete(request, None, turn_id=str(step))
                elif kind == 7:
                    assert isinstance(host.tool_schemas(), list)
                    answer = host.handle_tool_call("chaos_tool", {"q": step}, messages=history)
                    assert isinstance(answer, str) and answer
                elif kind == 8:
                    assert isinstance(host.status(), dict)
                else:
                    host.update_model("model", 100_000)
                    host.start_session(session)
                counts[worker] += 1
        except BaseException as exc:  # anything here escaped the host
            escaped.append(exc)

    threads = [threading.Thread(target=drive, args=(i,)) for i in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert escaped == []
    assert invalid == []
    assert sum(counts) == CALLS
    assert histories == snapshots
    status = host.counters.as_dict()
    assert status["hook_failures"] > 100
    assert status["hook_timeouts"] > 10  # hangs in bounded calls cost only the bound
    assert status["select_context_fallbacks"] > 100
    assert status["pass_timeouts"] + status["pass_pool_exhausted"] > 0
    assert status["passes"] == THREADS * (CALLS // THREADS // 50)
    # calls the host gave up on still finish on their workers: let them, so that what they
    # log lands in this test and not in the next one
    pool = host._pool
    for _ in range(200):
        if pool.stuck == 0:
            break
        threading.Event().wait(0.05)

"""Copies and JSON encodings per host call, counted (not timed): each message is copied once
at the host's boundary, and encoded at most once more where an engine stores it.

A 201-message conversation goes through one turn with each engine, as an
agent makes it: ``select_context`` with a new ask, ``turn_complete`` with the
ask and the reply appended, then ``compress``; ``select_context`` and
``turn_complete`` again a turn later, one message longer. For each call the
table shows the messages handed over, the copies the host made (its kept copies
made once per message object, and ``copy_message`` called from
``hermes_core.host``), those the engine made of its own, and the JSON documents
written (``JSONEncoder.encode``: ``json.dumps`` and stored bodies alike).
Targets: the host copies each message it hands over once at most; a turn later
it copies only what is new (a compression pass copies all: its snapshot is
private).
"""

from __future__ import annotations

import json.encoder
import sys
import tempfile
from collections import Counter
from collections.abc import Callable
from typing import Any

from hermes_engine_lcm.engine import LCMEngine
from judging import Target, judge

import hermes_core.messages._copying as copying
from hermes_compressor import CompressorEngine
from hermes_core.testing import host_for, sample_conversation

COUNTS: Counter[str] = Counter()


def _counting(name: str, function: Callable[..., Any]) -> Callable[..., Any]:
    def counted(*args: Any, **kwargs: Any) -> Any:
        COUNTS[name] += 1
        return function(*args, **kwargs)

    return counted


def _counting_copies(function: Callable[..., Any]) -> Callable[..., Any]:
    def counted(*args: Any, **kwargs: Any) -> Any:
        frame = sys._getframe(1)
        while frame.f_globals.get("__name__") == copying.__name__:
            frame = frame.f_back  # type: ignore[assignment]
        caller = str(frame.f_globals.get("__name__", ""))
        COUNTS["host copies" if caller.startswith("hermes_core.host") else "engine copies"] += 1
        return function(*args, **kwargs)

    return counted


def one_turn(engine: type[Any], name: str) -> list[tuple[str, int, Counter[str]]]:
    """(call, messages handed, counts) for one turn of a 201-message conversation."""
    history = sample_conversation(100)[:201]
    ask = {"role": "user", "content": "which host runs the staging database?"}
    reply = {"role": "assistant", "content": "kestrel-17, port 6543."}
    request = [*history, ask]
    turn = [*history, ask, reply]
    rows = []
    with tempfile.TemporaryDirectory() as home:
        config = {"compression": {"hook_timeout_seconds": 0, "context_timeout_seconds": 0}}
        host = host_for(engine, name, config=config, env={"HERMES_HOME": home})
        host.update_model("bench-model", 8_000)
        host.start_session("bench")
        host.turn_complete(history)  # the store (if any) already holds the conversation
        calls: dict[str, tuple[list[Any], Callable[[], object]]] = {
            "select_context": (
                request,
                lambda: host.select_context(
                    request, conversation_messages=history, incoming_message=ask
                ),
            ),
            "turn_complete": (turn, lambda: host.turn_complete(turn)),
            "compress": (turn, lambda: host.compress(turn)),
        }
        for call, (handed_list, run) in calls.items():
            handed = len(handed_list)
            COUNTS.clear()
            before = host._handed.copied  # the copies the host keeps, made once per message
            run()
            COUNTS["host copies"] += host._handed.copied - before
            rows.append((call, handed, Counter(COUNTS)))
            if call != "compress":  # the same call a turn later: only what is new is copied
                request.append({"role": "user", "content": "and the port?"})
                turn.append({"role": "user", "content": "and the port?"})
                COUNTS.clear()
                before = host._handed.copied
                run()
                COUNTS["host copies"] += host._handed.copied - before
                rows.append((f"{call} again", handed + 1, Counter(COUNTS)))
        host.close()
    return rows


def main() -> int:
    copying.copy_message = _counting_copies(copying.copy_message)
    json.encoder.JSONEncoder.encode = _counting(  # type: ignore[method-assign]
        "encodings", json.encoder.JSONEncoder.encode
    )
    targets = []
    print(
        f"{'engine':12} {'call':16} {'messages':>9} {'host copies':>12} {'engine copies':>14} "
        f"{'encodings':>10}"
    )
    for engine, name in ((CompressorEngine, "compressor"), (LCMEngine, "lcm")):
        for call, handed, counts in one_turn(engine, name):
            # a turn later only the new message is copied; otherwise each one at most once
            allowed = 1 if call.endswith("again") else handed
            targets.append(
                Target(f"{name} {call}: host copies / allowed", counts["host copies"] / allowed, 1)
            )
            print(
                f"{name:12} {call:16} {handed:9} {counts['host copies']:12} "
                f"{counts['engine copies']:14} {counts['encodings']:10}"
            )
    return judge(targets, source="bench_copies")


if __name__ == "__main__":
    sys.exit(main())

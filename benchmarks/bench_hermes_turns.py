"""A 300-turn conversation through the adapter, turn by turn as Hermes Agent 0.19 and 0.22
call an engine, side by side with the same calls on an engine made directly.

Per turn, as Hermes 0.19 calls it: ``should_compress`` at the turn's start (``compress``
when it says so) and ``update_from_response`` after the answer. Hermes 0.22 also calls
``select_context`` before the request, ``prune_tool_results_only`` after the answer and
``on_turn_complete`` at the end of the turn; the adapter forwards each (0.19 never calls
them). Hermes itself is not installed here: the adapter's base class is the stand-in
(:mod:`hermes_core.sources.hermes_plugins._shims`), and the code on the call path is the code that
runs inside Hermes. Each run starts from a fresh store; a trial runs the direct calls
and the adapter back to back, and the ratio is the median over the trials
(``judging.py``).

Targets: through the adapter a turn costs at most 1.5x the same calls made directly,
for each Hermes release's calls. The ratio of a 0.22 turn to a 0.19 turn is reported:
it is the price of ``select_context`` (recall in every request), not of the adapter.
"""

from __future__ import annotations

import copy
import functools
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from judging import Target, judge, median_ratio

from hermes_core import discover, estimate_tokens
from hermes_core.config import load_config
from hermes_core.hermes_agent._adapter import adapter_class
from hermes_core.sources.hermes_plugins import _shims as shims
from hermes_core.testing._conversations import sample_conversation

TURNS = 300
TRIALS = 5
CONTEXT_LENGTH = 32_000


def engine(name: str, home: Path, through_adapter: bool) -> Any:
    """An engine as Hermes holds it (the adapter), or one made directly."""
    env = {"HERMES_HOME": str(home)}
    config = load_config({"context": {"engine": name}, "lcm": {"threshold": 0.5}}, env=env)
    registry = discover(config)
    made = copy.deepcopy(adapter_class()(registry, env)) if through_adapter else None
    made = made if made is not None else registry.create_engine(name)
    made.update_model("bench-model", CONTEXT_LENGTH)
    made.on_session_start("bench")
    return made


def conversation_turns() -> list[list[dict[str, Any]]]:
    """The conversation's 300 turns: a user message, a tool call, its result, an answer."""
    messages = sample_conversation(TURNS)
    return [messages[1 + 4 * n : 5 + 4 * n] for n in range(TURNS)]


def run(made: Any, turns: list[list[dict[str, Any]]], current: bool) -> float:
    """Seconds for every turn, called as Hermes 0.22 (``current``) or 0.19 calls them."""
    history: list[dict[str, Any]] = [{"role": "system", "content": "You are a coding agent."}]
    start = time.perf_counter()
    for turn in turns:
        history.append(turn[0])
        tokens = estimate_tokens(history)
        if made.should_compress(tokens):
            history = made.compress(history, tokens)
        if current:
            made.select_context(
                history,
                conversation_messages=history,
                incoming_message=turn[0],
                budget_tokens=CONTEXT_LENGTH,
            )
        history.extend(turn[1:])
        tokens = estimate_tokens(history)
        made.update_from_response(
            {"prompt_tokens": tokens, "completion_tokens": 100, "total_tokens": tokens + 100}
        )
        if current:
            history, _ = made.prune_tool_results_only(history, current_tokens=tokens)
            made.on_turn_complete(history, usage={"prompt_tokens": tokens})
    return time.perf_counter() - start


def close(made: Any) -> None:
    host = getattr(made, "host", None)
    (host if host is not None else made).close()


def timed(name: str, turns: list[list[dict[str, Any]]], current: bool, adapter: bool) -> float:
    """Seconds per turn of one run over a fresh store."""
    with tempfile.TemporaryDirectory() as scratch:
        made = engine(name, Path(scratch), adapter)
        seconds = run(made, turns, current)
        close(made)
    return seconds / TURNS


def trial(
    name: str, turns: list[list[dict[str, Any]]], current: bool, adapter_times: list[float]
) -> tuple[float, float]:
    """One trial: the direct calls and the adapter back to back, ``(adapter, direct)``."""
    direct = timed(name, turns, current, adapter=False)
    through = timed(name, turns, current, adapter=True)
    adapter_times.append(through)
    return through, direct


def main() -> int:
    shims.install()
    turns = conversation_turns()
    targets = []
    print(f"{'engine':11} {'calls of':9} {'adapter / direct, median of':>30} {TRIALS} trials")
    for name in ("compressor", "lcm"):
        per_turn: dict[bool, list[float]] = {False: [], True: []}
        for current in (False, True):
            measure = functools.partial(trial, name, turns, current, per_turn[current])
            ratio = median_ratio(TRIALS, measure)
            version = "0.22" if current else "0.19"
            print(f"{name:11} {version:9} {ratio:30.2f}x")
            target = f"{name}, Hermes {version}'s calls: adapter / direct"
            targets.append(Target(target, ratio, 1.5))
        slower = statistics.median(per_turn[True]) / statistics.median(per_turn[False])
        print(f"{name:11} a 0.22 turn through the adapter costs {slower:.2f}x a 0.19 turn")
    return judge(targets, source="bench_hermes_turns")


if __name__ == "__main__":
    sys.exit(main())

"""The recall protocol: replay through ContextHost, then one fresh request per question.

See the README of the LoCoMo development split. A question scores when every
evidence turn (its first 200 characters) is verbatim in the request and the
request is within the budget, counted as characters / 4 over message
contents, rounded up.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hermes_core import ContextHost
from recall.locomo import Conversation, Question

__all__ = ["ReplayResult", "ask", "fits", "replay", "request_tokens", "scores"]

SESSION = "recall"


def request_tokens(messages: list[dict[str, Any]]) -> int:
    """Characters / 4 over the messages' contents, rounded up."""
    chars = sum(len(str(m.get("content") or "")) for m in messages)
    return -(-chars // 4)


def fits(request: list[dict[str, Any]], budget: int) -> bool:
    return request_tokens(request) <= budget


def scores(request: list[dict[str, Any]], question: Question, budget: int) -> bool:
    """Whether every evidence turn is verbatim in ``request`` and it fits ``budget``."""
    if not fits(request, budget):
        return False
    text = "\n".join(str(m.get("content") or "") for m in request)
    return all(evidence in text for evidence in question.evidence)


@dataclass
class ReplayResult:
    """What a replay leaves: the agent's history, the engine's home, and the figures."""

    engine: str
    budget: int
    home: Path
    history: list[dict[str, Any]]
    turns: int = 0
    passes: int = 0
    model_calls: int = 0
    over_window: int = 0
    largest_request: int = 0
    status: dict[str, Any] = field(default_factory=dict)


def _host(engine: str, home: Path, budget: int, config: dict[str, Any] | None) -> ContextHost:
    # B is what a request may hold, the protocol's own measure: no share of it is kept for
    # a reply (the model's window would be B plus that)
    data = {"context": {"engine": engine, "reply_reserve_tokens": 0}, **(config or {})}
    host = ContextHost.from_config(data, env={"HERMES_HOME": str(home)})
    host.update_model("recall-model", budget)
    host.start_session(SESSION)
    return host


def replay(
    conversation: Conversation,
    engine: str,
    budget: int,
    home: Path,
    config: dict[str, Any] | None = None,
) -> ReplayResult:
    """Replay every turn: ``record_usage`` and ``should_compress``/``compress`` after each
    message, a model call (``select_context``, checked against the window) before each
    assistant turn, ``turn_complete`` after it."""
    home.mkdir(parents=True, exist_ok=True)
    result = ReplayResult(engine, budget, home, [conversation.messages[0]])
    with _host(engine, home, budget, config) as host:
        history = result.history
        for message in conversation.turns:
            if message["role"] == "assistant" and len(history) > 1:
                request = host.select_context(
                    history,
                    conversation_messages=history[:-1],
                    incoming_message=history[-1],
                    budget_tokens=budget,
                )
                size = request_tokens(request)
                result.model_calls += 1
                result.largest_request = max(result.largest_request, size)
                result.over_window += size > budget
            history.append(message)
            result.turns += 1
            estimate = request_tokens(history)
            host.record_usage(
                {"prompt_tokens": estimate, "completion_tokens": 0, "total_tokens": estimate}
            )
            if host.should_compress(estimate):
                history[:] = host.compress(history, current_tokens=estimate)
            if message["role"] == "assistant":
                host.turn_complete(history)
        # the engine embeds in the background; the questions come at once, not later
        flush = getattr(host.engine, "flush_embeddings", None)
        if flush is not None:
            flush()
        result.passes = int(host.status().get("passes", 0))
        result.status = host.status()
    return result


@contextmanager
def _fresh_copy(home: Path) -> Iterator[Path]:
    with tempfile.TemporaryDirectory(prefix="recall-question-") as scratch:
        copy = Path(scratch) / "home"
        shutil.copytree(home, copy)
        yield copy


def ask(
    result: ReplayResult, question: Question, config: dict[str, Any] | None = None
) -> list[dict[str, Any]]:
    """The request for ``question`` from a fresh copy of the engine's state after the replay."""
    with (
        _fresh_copy(result.home) as home,
        _host(result.engine, home, result.budget, config) as host,
    ):
        history = list(result.history)
        return host.select_context(
            [*history, question.message],
            conversation_messages=history,
            incoming_message=question.message,
            budget_tokens=result.budget,
        )

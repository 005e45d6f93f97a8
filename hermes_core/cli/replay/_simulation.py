"""Driving a conversation through a ContextHost as an agent loop would, and what it cost."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

from hermes_core._tokens import estimate_tokens
from hermes_core.host import ContextHost
from hermes_core.host._summarizer import summarizer_of

__all__ = ["Pass", "ReplayReport", "Turn", "replay"]


@dataclass(frozen=True)
class Turn:
    """One model call: the tokens it was sent, and what it would have been sent without engine."""

    number: int
    sent_tokens: int
    full_tokens: int


@dataclass(frozen=True)
class Pass:
    """One compaction pass, after the model call of ``turn``."""

    turn: int
    tokens_before: int
    tokens_after: int
    seconds: float


@dataclass
class ReplayReport:
    """What a replay found: every model call and pass, and the figures a person asks for."""

    engine: str
    context_length: int
    threshold_tokens: int
    #: Tokens of the window kept for the model's reply (a request may hold the rest).
    summarizer: str
    messages: int
    reply_reserve_tokens: int = 0
    turns: list[Turn] = field(default_factory=list)
    passes: list[Pass] = field(default_factory=list)
    #: Model calls after which the engine's compress raised (the host kept the history).
    failed_passes: list[int] = field(default_factory=list)
    final_messages: int = 0
    final_tokens: int = 0
    #: The standing instructions the engine carries at the end (its status says which).
    standing_instructions: list[str] = field(default_factory=list)
    #: Backoffs started by passes that did not help, and the passes they held (see
    #: :mod:`hermes_core.host._backoff`).
    passes_backed_off: int = 0
    passes_held: int = 0
    #: Preparations of a pass's summaries started ahead, and the passes (the compressor)
    #: or folds (lcm) that found their summary ready, or not (see
    #: :mod:`hermes_core.host._preparation`).
    preparations: int = 0
    summaries_ready: int = 0
    summaries_not_ready: int = 0

    @property
    def tokens_without_engine(self) -> int:
        """Tokens all model calls would have been sent with the whole history each time."""
        return sum(turn.full_tokens for turn in self.turns)

    @property
    def tokens_with_engine(self) -> int:
        """Tokens all model calls were sent."""
        return sum(turn.sent_tokens for turn in self.turns)

    @property
    def largest_request(self) -> int:
        return max((turn.sent_tokens for turn in self.turns), default=0)

    def pass_points(self) -> tuple[list[int], list[int]]:
        """Where each pass ended, for a chart: (model call numbers, tokens after the pass)."""
        return [p.turn for p in self.passes], [p.tokens_after for p in self.passes]

    @property
    def input_budget(self) -> int:
        """What a request may hold: the window minus the reply's reserve."""
        return self.context_length - self.reply_reserve_tokens

    @property
    def over_window(self) -> list[Turn]:
        """The model calls whose request left the reply less than its reserve (a provider
        rejects them, or cuts the answer short)."""
        return [turn for turn in self.turns if turn.sent_tokens > self.input_budget]

    def figures(self) -> dict[str, Any]:
        """The summary figures, for people and for ``--json``."""
        without, with_engine = self.tokens_without_engine, self.tokens_with_engine
        return {
            "model_calls": len(self.turns),
            "passes": len(self.passes),
            "failed_passes": len(self.failed_passes),
            "tokens_without_engine": without,
            "tokens_with_engine": with_engine,
            "saved_share": round(1 - with_engine / without, 4) if without else 0.0,
            "largest_request_tokens": self.largest_request,
            "largest_request_share_of_window": round(
                self.largest_request / max(1, self.context_length), 4
            ),
            "reply_reserve_tokens": self.reply_reserve_tokens,
            "tokens_left_for_reply": self.context_length - self.largest_request,
            "requests_over_window": len(self.over_window),
            "passes_backed_off": self.passes_backed_off,
            "passes_held": self.passes_held,
            "preparations": self.preparations,
            "summaries_ready_at_pass": self.summaries_ready,
            "summaries_not_ready_at_pass": self.summaries_not_ready,
        }

    def as_dict(self) -> dict[str, Any]:
        return {
            "engine": self.engine,
            "turns": len(self.turns),
            "messages": self.messages,
            "context_length": self.context_length,
            "threshold_tokens": self.threshold_tokens,
            "summarizer": self.summarizer,
            "figures": self.figures(),
            "passes": [asdict(p) | {"seconds": round(p.seconds, 4)} for p in self.passes],
            "requests": [asdict(turn) for turn in self.turns],
            "final_messages": self.final_messages,
            "final_tokens": self.final_tokens,
            "standing_instructions": self.standing_instructions,
        }


def _turn_ends(message: dict[str, Any]) -> bool:
    return message.get("role") == "assistant" and not message.get("tool_calls")


def replay(
    host: ContextHost,
    source: list[dict[str, Any]],
    window: int,
    advance: Callable[[], None] = lambda: None,
) -> tuple[ReplayReport, list[dict[str, Any]]]:
    """Replay ``source`` through ``host`` for a model of ``window`` tokens.

    A model call ends each turn (an assistant message without tool calls):
    its usage is recorded, the host decides whether to compress, and the
    turn is completed, as an agent loop does. Returns the report and the
    history as the agent holds it at the end.
    """
    host.update_model("replay-model", window)
    host.start_session("replay")
    engine_status = host.status()
    report = ReplayReport(
        engine=host.engine_name,
        context_length=window,
        threshold_tokens=int(engine_status.get("threshold_tokens", 0) or 0),
        summarizer=summarizer_of(host.registry),
        messages=len(source),
        reply_reserve_tokens=host.reply_reserve_tokens,
    )
    history: list[dict[str, Any]] = []
    full_tokens = 0
    for message in source:
        history.append(message)
        full_tokens += estimate_tokens([message])
        advance()
        if not _turn_ends(message):
            continue
        number = len(report.turns) + 1
        tokens = estimate_tokens(history)
        report.turns.append(Turn(number, tokens, full_tokens))
        host.record_usage({"prompt_tokens": tokens, "completion_tokens": 0, "total_tokens": tokens})
        if host.should_compress(tokens):
            failures = host.counters.failed_passes
            start = time.perf_counter()
            history = host.compress(history, current_tokens=tokens)
            elapsed = time.perf_counter() - start
            if host.counters.failed_passes > failures:  # the engine failed: no pass was made
                report.failed_passes.append(number)
            else:
                report.passes.append(Pass(number, tokens, estimate_tokens(history), elapsed))
        host.turn_complete(history, None, turn_id=f"turn-{number}")
        # a person reads the answer meanwhile: what is prepared is done before the next turn,
        # so the replay is the same every time
        host.wait_for_preparations(host.context_timeout_seconds or None)
    report.final_messages, report.final_tokens = len(history), estimate_tokens(history)
    status = host.status()
    report.passes_backed_off = int(status.get("passes_backed_off", 0))
    report.passes_held = int(status.get("passes_held", 0))
    report.preparations = int(status.get("preparations_started", 0))
    report.summaries_ready = int(
        status.get("passes_with_prepared_summary", status.get("prepared_summaries_used", 0))
    )
    report.summaries_not_ready = int(
        status.get("passes_without_prepared_summary", status.get("summaries_not_ready", 0))
    )
    carried = status.get("standing_instructions")
    if isinstance(carried, list):
        report.standing_instructions = [str(text) for text in carried]
    return report, history

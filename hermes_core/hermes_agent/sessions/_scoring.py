"""One rebuilt Hermes session replayed through one engine, as an agent loop would run it,
and what that cost and kept.

Each assistant message of the transcript is a model call: the request is what the
host's ``select_context`` returns for the history the agent holds (the engine's
own compactions included), and it is measured against the window. After each call
the usage is recorded and the engine may compact; a turn ends at an assistant
message without tool calls. The probes of :mod:`.probes` are checked on the request
of the call that answers the user message they are asked at.
"""

from __future__ import annotations

import hashlib
import json
import statistics
from dataclasses import dataclass, field
from typing import Any

from hermes_core._tokens import estimate_tokens
from hermes_core.hermes_agent.sessions._probes import Probe
from hermes_core.host import ContextHost
from hermes_core.host._summarizer import summarizer_of

__all__ = ["EngineScore", "score_engine"]


@dataclass
class EngineScore:
    """What one engine did with one session."""

    engine: str
    window: int
    budget: int
    turns: int = 0
    calls: int = 0
    request_tokens: list[int] = field(default_factory=list)
    over_window: int = 0
    passes: int = 0
    passes_no_gain: int = 0
    passes_failed: int = 0
    cache_breaks: int = 0
    summarizer: str = ""
    probes: list[tuple[Probe, bool]] = field(default_factory=list)
    #: For each probe that was not held: the pass after which what it asks for was first
    #: missing from a request (0: missing before any pass, left out by the selection).
    fell_out: dict[Probe, int] = field(default_factory=dict)

    def share(self, kind: str) -> tuple[int, int]:
        """(held, asked) of the probes of ``kind``."""
        asked = [held for probe, held in self.probes if probe.kind == kind]
        return sum(asked), len(asked)

    def figures(self) -> dict[str, Any]:
        tokens = sorted(self.request_tokens) or [0]
        rare, rare_asked = self.share("rare_token")
        kept, kept_asked = self.share("standing_instruction")
        return {
            "engine": self.engine,
            "window": self.window,
            "turns": self.turns,
            "model_calls": self.calls,
            "requests_over_window": self.over_window,
            "passes": self.passes,
            "passes_per_100_turns": round(100 * self.passes / max(1, self.turns), 1),
            "passes_no_gain": self.passes_no_gain,
            "passes_failed": self.passes_failed,
            "tokens_median": int(statistics.median(tokens)),
            "tokens_p95": tokens[min(len(tokens) - 1, int(0.95 * len(tokens)))],
            "cache_breaks": self.cache_breaks,
            "summarizer": self.summarizer,
            "rare_tokens_recalled": [rare, rare_asked],
            "standing_instructions_kept": [kept, kept_asked],
        }


def _digest(message: dict[str, Any]) -> bytes:
    return hashlib.blake2b(
        json.dumps(message, sort_keys=True, default=str).encode(), digest_size=12
    ).digest()


def score_engine(
    host: ContextHost, transcript: list[dict[str, Any]], window: int, probes: list[Probe]
) -> EngineScore:
    """Replay ``transcript`` through ``host`` at a model of ``window`` tokens."""
    host.update_model("replay-model", window)
    host.start_session("hermes-replay")
    score = EngineScore(
        engine=host.engine_name,
        window=window,
        budget=host.input_budget_tokens,
        summarizer=summarizer_of(host.registry),
    )
    asked: dict[int, list[Probe]] = {}
    for probe in probes:
        asked.setdefault(probe.asked_at, []).append(probe)
    missing_since: dict[Probe, int] = {}  # the pass count when each was first missing
    history: list[dict[str, Any]] = []
    previous: list[bytes] = []
    # an engine that embeds in the background (LCM) is waited for before each request,
    # as its work would be done between an agent's turns: the same store gives the
    # same figures on every run
    settle = getattr(host.engine, "flush_embeddings", None) or (lambda: None)
    for index, message in enumerate(transcript):
        if message.get("role") == "assistant" and history:
            settle()  # the engine's background work done: the same store, the same figures
            request = host.select_context(
                list(history),
                conversation_messages=history[:-1],
                incoming_message=history[-1],
                budget_tokens=host.input_budget_tokens,
            )
            tokens = estimate_tokens(request)
            score.calls += 1
            score.request_tokens.append(tokens)
            score.over_window += tokens > score.budget
            digests = [_digest(m) for m in request]
            score.cache_breaks += bool(previous) and digests[: len(previous)] != previous
            previous = digests
            for probe in probes:  # each one watched from its source to where it is asked
                watched = probe.source < index - 1 <= probe.asked_at
                if watched and probe not in missing_since and not probe.holds(request, transcript):
                    missing_since[probe] = score.passes
            for probe in asked.get(index - 1, []):
                held = probe.holds(request, transcript)
                score.probes.append((probe, held))
                if not held:
                    score.fell_out[probe] = missing_since.get(probe, score.passes)
            history.append(message)
            host.record_usage(
                {"prompt_tokens": tokens, "completion_tokens": 0, "total_tokens": tokens}
            )
            if host.should_compress(tokens):
                counters = host.counters
                failed, no_gain = counters.failed_passes, counters.passes_no_gain
                history = host.compress(history, current_tokens=tokens)
                score.passes_failed += counters.failed_passes - failed
                score.passes_no_gain += counters.passes_no_gain - no_gain
                score.passes += 1
            if not message.get("tool_calls"):
                score.turns += 1
                host.turn_complete(history, None, turn_id=f"turn-{score.turns}")
            continue
        history.append(message)
    return score

"""The built-in ``compressor``: keep the head and the tail, summarise the middle.

A pass: drop what no provider would accept (orphaned tool results, calls
without results), find the boundaries, prune the middle without an LLM,
summarise it (through the host's auxiliary LLM when one is configured,
deterministically otherwise), and put head, summary and tail back together.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import Any

from hermes_compressor.assembly import SUMMARY_PREFIX, assemble, split_summary
from hermes_compressor.boundaries import Boundaries, find_boundaries, is_summary
from hermes_compressor.fallback_summary import fallback_summary
from hermes_compressor.prepared import PreparedSummaries, PreparedSummary, fingerprint
from hermes_compressor.pruning import prune
from hermes_compressor.settings import RULES, CompressorSettings
from hermes_compressor.summary_prompt import build_prompt
from hermes_compressor.thrash import ThrashBreaker
from hermes_core import (
    CHARS_PER_TOKEN,
    LLM,
    ContextEngine,
    FailureCooldown,
    HermesConfig,
    LLMAuthError,
    LLMNetworkError,
    LLMQuotaError,
    Message,
    PruneGate,
    SessionInstructions,
    StandingInstructions,
    accepted_keywords,
    estimate_message_tokens,
    get_logger,
    sanitize_tool_pairs,
)

__all__ = ["SUMMARY_PREFIX", "CompressorEngine"]

logger = get_logger("hermes_core.engines.compressor")

_ABORTING = (LLMAuthError, LLMQuotaError, LLMNetworkError)
_SUMMARY_TOKENS = (256, 4_000)
_MIN_SUMMARY_TOKENS = 64
#: The most tail messages a manual pass keeps when the tail budget would hold them all.
MANUAL_TAIL = 8


def _own_summary(message: Any) -> bool:
    return is_summary(message, SUMMARY_PREFIX)


class CompressorEngine(ContextEngine):
    """Summarising compressor, the default context engine.

    Receives from the host the configuration (``compression:``) and, when
    ``auxiliary.compression`` is configured, the chat client it summarises
    with. ``token_counter`` replaces the characters/4 estimate per message.
    """

    config_rules = MappingProxyType({"compression": RULES})
    #: Where the kept tail starts, ``tail_start(messages, head)``, instead of the tail's
    #: budget (the guarantees of :func:`find_boundaries` still apply): the stand-in for
    #: Hermes' compressor sets the rule of the Hermes release a plugin was built for.
    tail_start: Callable[[Sequence[Message], int], int] | None = None

    def __init__(
        self,
        config: Mapping[str, Any] | None = None,
        llm: LLM | None = None,
        hermes_config: HermesConfig | None = None,
        *,
        token_counter: Callable[[Any], int] = estimate_message_tokens,
        clock: Callable[[], float] | None = None,
    ) -> None:
        #: What made this engine, for clone_for_agent.
        self._made_with = (config, llm, hermes_config, token_counter, clock)
        self.settings = CompressorSettings.from_config(config, hermes_config)
        self.threshold_percent = self.settings.threshold
        self.protect_first_n = self.settings.protect_first_n
        self.protect_last_n = self.settings.protect_last_n
        self.llm = llm
        self.count_tokens = token_counter
        self.cooldown = FailureCooldown(clock) if clock else FailureCooldown()
        self.breaker = ThrashBreaker()
        self.prune_gate = PruneGate.from_config(hermes_config or config)
        self.attempts_this_turn = 0
        self.last_summary_source: str | None = None
        #: Each session's standing instructions, carried into its compacted histories only
        #: (one engine may serve several users: one's rules never reach another's history).
        self.standing = SessionInstructions(skip=_own_summary)
        #: Each session's summary prepared ahead (see :meth:`prepare_compress`).
        self.prepared = PreparedSummaries()
        #: The session of the last ``on_session_start``; a pass names its own when the host
        #: passes ``session_id``.
        self._session = ""

    @property
    def name(self) -> str:
        return "compressor"

    # ------------------------------------------------------------------ decisions

    def update_model(
        self,
        model: str,
        context_length: int,
        base_url: str = "",
        api_key: str = "",
        provider: str = "",
        api_mode: str = "",
    ) -> None:
        super().update_model(model, context_length, base_url, api_key, provider, api_mode)
        if self.settings.threshold_tokens is not None:
            self.threshold_tokens = min(self.settings.threshold_tokens, context_length)

    def update_from_response(self, usage: dict[str, Any]) -> None:
        self.last_prompt_tokens = int(usage.get("prompt_tokens", 0))
        self.last_completion_tokens = int(usage.get("completion_tokens", 0))
        self.last_total_tokens = int(usage.get("total_tokens", 0))
        self.attempts_this_turn = 0
        self.breaker.usage(self.last_prompt_tokens, self.threshold_tokens)

    def should_compress(self, prompt_tokens: int | None = None) -> bool:
        return self.should_compress_info(prompt_tokens)[0]

    def should_compress_info(self, prompt_tokens: int | None = None) -> tuple[bool, str | None]:
        tokens = self.last_prompt_tokens if prompt_tokens is None else prompt_tokens
        due = self.threshold_tokens > 0 and tokens >= self.threshold_tokens
        if not due:
            return False, None
        remaining = self.cooldown.remaining()
        if remaining:
            return False, f"cooldown:{remaining}"
        if self.breaker.tripped and not self._over_window(tokens):
            return False, "ineffective"  # anti-thrash only below the window: above it, try
        if self.attempts_this_turn >= self.settings.max_attempts:
            return False, "max_attempts"
        return True, None

    def has_content_to_compress(self, messages: list[Message]) -> bool:
        tokens = [self.count_tokens(m) for m in messages]
        bounds = find_boundaries(
            messages, tokens, self.settings, self._tail_budget(), SUMMARY_PREFIX
        )
        return bounds.middle_size > 0

    def on_session_start(self, session_id: str, **kwargs: Any) -> None:
        """The session later calls concern when the host names none."""
        self._session = session_id

    def on_session_end(self, session_id: str, messages: list[Message]) -> None:
        """The session is over: its rules leave memory (a resumed session reads them again
        from the block its compacted history carries and from its user's messages)."""
        self.standing.forget(session_id)

    def on_session_reset(self, session_id: str | None = None) -> None:
        super().on_session_reset()
        self.prune_gate.reset()
        self.breaker.reset()
        self.attempts_this_turn = 0
        # a new conversation: the rules of the last one end, and only that session's
        self.standing.forget(self._session if session_id is None else session_id)
        self.prepared.drop(self._session if session_id is None else session_id)

    def clone_for_agent(self) -> CompressorEngine:
        """A new compressor for another agent: the same settings, LLM and model figures, a
        cooldown, anti-thrash record and prune gate of its own (a deep copy would copy the
        cooldown's lock, which cannot be copied)."""
        config, llm, hermes_config, token_counter, clock = self._made_with
        twin = CompressorEngine(
            config, llm, hermes_config, token_counter=token_counter, clock=clock
        )
        return self.copy_model_figures(twin)

    def prune_tool_results_only(
        self, messages: list[Message], current_tokens: int | None = None
    ) -> tuple[list[Message], int]:
        """Below the threshold, old tool results become one-line descriptors and repeated
        ones back-references, without an LLM (:mod:`hermes_compressor.pruning`).

        As Hermes Agent's compressor: only past ``compression.proactive_prune_tokens``
        (default 0: never), tool results of ``proactive_prune_min_result_chars`` or more,
        the head (``protect_first_n``) and tail (``protect_last_n``) kept as they are,
        and made only when it frees ``proactive_prune_min_reclaim_tokens``.
        """
        if not self.prune_gate.reached(current_tokens):
            return messages, 0  # before counting: an agent asks after every response
        tokens = [self.count_tokens(m) for m in messages]
        before = sum(tokens)
        if not self.prune_gate.grown_back(before):
            return messages, 0
        head = self.protect_first_n + (1 if messages and messages[0].get("role") == "system" else 0)
        tail = max(head, len(messages) - self.protect_last_n)
        if tail <= head:
            return messages, 0
        out = prune(messages, self.prune_gate.min_result_chars)
        out[:head], out[tail:] = messages[:head], messages[tail:]
        changed = [i for i, old in enumerate(messages) if out[i] is not old]
        after = before - sum(tokens[i] - self.count_tokens(out[i]) for i in changed)
        if not changed or not self.prune_gate.commit(before, after):
            return messages, 0
        return out, len(changed)

    def get_status(self) -> dict[str, Any]:
        status = super().get_status()
        decision, reason = self.should_compress_info()
        status.update(
            blocked_reason=None if decision else reason,
            cooldown_seconds=self.cooldown.remaining(),
            summariser="llm" if self.llm is not None else "deterministic",
            last_summary_source=self.last_summary_source,
            summary_prepared=self.prepared.state(self._session),
            passes_with_prepared_summary=self.prepared.used,
            passes_without_prepared_summary=self.prepared.not_ready,
            standing_instructions=self.standing.of(self._session).shown(),
            standing_instructions_left_out=self.standing.of(self._session).dropped,
        )
        return status

    # ------------------------------------------------------------------ the pass

    def _over_window(self, tokens: int) -> bool:
        """Whether ``tokens`` would not fit the model's window: a provider would refuse it."""
        return self.context_length > 0 and tokens >= self.context_length

    def _tail_budget(self) -> int:
        return int(self.threshold_tokens * self.settings.target_ratio)

    def _summary_tokens(self, middle_tokens: int) -> int:
        """How long the summary may be: ``target_ratio`` of what it replaces, at most
        ``target_ratio`` of the threshold (so it scales with the window), within 64-4,000."""
        low, high = _SUMMARY_TOKENS
        high = min(high, max(_MIN_SUMMARY_TOKENS, self._tail_budget()))
        low = min(low, high)
        return min(high, max(low, int(middle_tokens * self.settings.target_ratio)))

    def compress(
        self,
        messages: list[Message],
        current_tokens: int | None = None,
        focus_topic: str | None = None,
        force: bool = False,
        deadline: float | None = None,
        session_id: str | None = None,
    ) -> list[Message]:
        self.attempts_this_turn += 1
        standing = self.standing.observe(
            self._session if session_id is None else session_id, messages
        )
        clean = sanitize_tool_pairs(messages)
        tokens = [self.count_tokens(m) for m in clean]
        bounds = self._boundaries(clean, tokens)
        if bounds.middle_size == 0 and (force or focus_topic):
            # a manual pass over a conversation the tail budget holds whole: as Hermes'
            # compressor does, keep a short tail (at most 8 messages) and fold the rest
            bounds = self._boundaries(clean, tokens, min(self.protect_last_n, MANUAL_TAIL))
        if bounds.middle_size == 0:
            return clean
        head, middle, tail = (
            clean[: bounds.head],
            clean[bounds.head : bounds.tail],
            clean[bounds.tail :],
        )
        session = self._session if session_id is None else session_id
        before = sum(tokens)
        if self.llm is not None and focus_topic is None:
            ready = self.prepared.covering(session, bounds.head, middle)
            if ready is not None:
                rest = middle[ready.count :]
                result, after = self._carry(assemble(head, ready.summary, [*rest, *tail]), standing)
                if after < before and not (0 < self.threshold_tokens <= after):
                    self.prepared.used += 1
                    self.last_summary_source = "prepared"
                    return self._passed(session, result)
            self.prepared.not_ready += 1
        previous_text, turns = _middle_parts(middle)
        summary = self._summarise(
            turns, previous_text, focus_topic, sum(tokens[bounds.head : bounds.tail]), deadline
        )
        if summary is None:
            return list(messages)
        result, after = self._carry(assemble(head, summary, tail), standing)
        if after >= before:
            logger.info("compressor.no_gain", before_tokens=before, after_tokens=after)
            return clean
        return self._passed(session, result)

    def _passed(self, session: str, result: list[Message]) -> list[Message]:
        """A pass ran: its counters, and the session's prepared summary is stale."""
        self.compression_count += 1
        self.last_prompt_tokens = -1
        self.breaker.pass_ran()
        self.prepared.drop(session)
        return result

    @property
    def prepares_ahead(self) -> bool:  # type: ignore[override]
        """Only with an auxiliary LLM: without one a summary costs nothing to make."""
        return self.llm is not None

    def prepare_compress(
        self,
        messages: list[Message],
        current_tokens: int | None = None,
        session_id: str | None = None,
        deadline: float | None = None,
    ) -> None:
        """Summarise, ahead of the pass, the middle a pass would summarise now, with the
        auxiliary LLM (without one a summary costs nothing: nothing is prepared).

        The pass at the threshold applies it when its middle still starts with those very
        messages, and keeps the turns that came after them as they are, while that
        brings the conversation under the threshold; otherwise it summarises as it
        would have. A middle that grew since is prepared again: what a pass finds is
        the latest summary finished.
        """
        if self.llm is None or self.cooldown.remaining():
            return
        session = self._session if session_id is None else session_id
        clean = sanitize_tool_pairs(messages)
        tokens = [self.count_tokens(m) for m in clean]
        bounds = self._boundaries(clean, tokens)
        middle = clean[bounds.head : bounds.tail]
        if not middle:
            return
        ready = self.prepared.covering(session, bounds.head, middle)
        if ready is not None and ready.count >= len(middle):
            return
        generation = self.prepared.generation(session)
        previous_text, turns = _middle_parts(middle)
        target = self._summary_tokens(sum(tokens[bounds.head : bounds.tail]))
        with self.prepared.preparing(session):
            try:
                summary = self._ask(turns, previous_text, None, target, deadline)
            except Exception as exc:
                logger.warning(
                    "compressor.preparation_failed",
                    error=f"{type(exc).__name__}: {exc}",
                    effect="the pass summarises when it runs",
                )
                return
        prepared = PreparedSummary(bounds.head, len(middle), fingerprint(middle), summary)
        self.prepared.put(session, prepared, generation)

    def get_automatic_compaction_status_message(
        self, *, phase: str, default_message: str, **context: Any
    ) -> str | None:
        """The host's line, saying whether the summary was prepared ahead (no wait) or is
        still being prepared (the pass waits for the summariser)."""
        if not self.emit_automatic_compaction_status:
            return None
        state = self.prepared.state(self._session) if self.llm is not None else None
        if state == "ready":
            return f"{default_message} (summary prepared ahead: no wait)"
        if state == "preparing":
            return f"{default_message} (summary not ready yet: waiting for the summariser)"
        return default_message

    def _carry(
        self, result: list[Message], standing: StandingInstructions
    ) -> tuple[list[Message], int]:
        """``result`` with the standing instructions in force after its system prompt, in
        their share of the window and never past it; and its tokens (each message counted
        once: the counter may be a model's tokenizer)."""
        window = self.context_length
        if window <= 0:
            return result, sum(self.count_tokens(m) for m in result)
        result = StandingInstructions.strip(result)
        after = sum(self.count_tokens(m) for m in result)
        room = min(int(window * StandingInstructions.SHARE), window - after)
        block = standing.carried(room, share=1.0).message
        if block is None:
            return result, after
        return StandingInstructions.place(result, block), after + self.count_tokens(block)

    def _boundaries(
        self, messages: list[Message], tokens: list[int], most_tail: int | None = None
    ) -> Boundaries:
        """The head and tail of a pass. When what they keep would hold the threshold on
        their own (a window too small for ``protect_first_n`` long messages), the head
        keeps the system prompt only: a pass must leave the request room."""
        budget = self._tail_budget()
        rule = self.tail_start
        bounds = find_boundaries(
            messages, tokens, self.settings, budget, SUMMARY_PREFIX, most_tail, rule
        )
        kept = sum(tokens[: bounds.head]) + sum(tokens[bounds.tail :])
        if self.settings.protect_first_n and 0 < self.threshold_tokens <= kept:
            narrow = dataclasses.replace(self.settings, protect_first_n=0)
            bounds = find_boundaries(
                messages, tokens, narrow, budget, SUMMARY_PREFIX, most_tail, rule
            )
        return bounds

    def _summarise(
        self,
        turns: list[Any],
        previous: str | None,
        focus_topic: str | None,
        middle_tokens: int,
        deadline: float | None = None,
    ) -> str | None:
        """The summary text, or None when the pass must leave the messages alone.

        The host's ``deadline`` caps the LLM request, for a client that takes one.
        """
        target = self._summary_tokens(middle_tokens)
        if self.llm is None or self.cooldown.remaining():
            self.last_summary_source = "deterministic"
            return fallback_summary(turns, previous, max_chars=target * CHARS_PER_TOKEN)
        try:
            text = self._ask(turns, previous, focus_topic, target, deadline)
        except _ABORTING as exc:
            seconds = self.cooldown.failed()
            logger.warning(
                "compressor.summary_aborted",
                error=f"{type(exc).__name__}: {exc}",
                cooldown_seconds=seconds,
            )
            return None
        except Exception as exc:
            seconds = self.cooldown.failed()
            logger.warning(
                "compressor.summary_failed",
                error=f"{type(exc).__name__}: {exc}",
                cooldown_seconds=seconds,
                fallback=not self.settings.abort_on_summary_failure,
            )
            if self.settings.abort_on_summary_failure:
                return None
            self.last_summary_source = "deterministic"
            return fallback_summary(turns, previous, max_chars=target * CHARS_PER_TOKEN)
        self.last_summary_source = "llm"
        return text

    def _ask(
        self,
        turns: list[Any],
        previous: str | None,
        focus_topic: str | None,
        target: int,
        deadline: float | None,
    ) -> str:
        """The auxiliary LLM's summary (a success ends its cooldown); raises what it raises."""
        assert self.llm is not None
        answer = self.llm.complete(
            build_prompt(turns, previous, focus_topic, target),
            max_tokens=target * 2,
            **accepted_keywords(self.llm.complete, {"deadline": deadline}),
        )
        self.cooldown.succeeded()
        return str(answer.text).strip()


def _middle_parts(middle: Sequence[Any]) -> tuple[str | None, list[Any]]:
    """What a middle is summarised from: the text of the summaries in it (None when there
    are none), and its other turns, pruned; standing-instruction blocks are neither (they
    are carried afresh)."""
    summaries: list[str] = []
    kept: list[Any] = []
    for message in middle:
        if StandingInstructions.is_block(message):
            continue
        if is_summary(message, SUMMARY_PREFIX):
            text, remainder = split_summary(message)
            summaries.append(text)
            if remainder is not None:
                kept.append(remainder)
        else:
            kept.append(message)
    return "\n\n".join(summaries) or None, prune(kept)

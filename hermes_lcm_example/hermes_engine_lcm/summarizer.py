"""Summaries that always come out smaller than what they cover.

Escalation: a detailed summary by the auxiliary LLM; if that is not smaller
than the input, a bullet summary at half the target; then deterministic
truncation (about 512 tokens, or half the input when that is smaller), which
always converges. Without an LLM, or while the LLM is in its failure cooldown
(:class:`hermes_core.llm.FailureCooldown`, the policy the compressor uses
too), the deterministic level is used directly.
"""

from __future__ import annotations

from hermes_core import (
    CHARS_PER_TOKEN,
    LLM,
    FailureCooldown,
    LLMError,
    accepted_keywords,
    estimate_text_tokens,
    get_logger,
)

__all__ = ["TRUNCATED_TOKENS", "summarize"]

logger = get_logger("hermes_core.engines.lcm")

TRUNCATED_TOKENS = 512
_DETAILED = (
    "Summarise these conversation turns for an AI agent that will no longer see them. "
    "Keep every fact it may need: names, paths, numbers, commands, errors, decisions, "
    "open questions. Write plain prose with short paragraphs."
)
_BULLETS = (
    "Summarise these conversation turns as terse bullet points: one fact per bullet, "
    "only what an AI agent continuing the work must know."
)

_FOCUS = (
    " Give most of the summary's room to everything about: {focus}. Keep the rest to a line or two."
)


def _truncate(text: str, tokens: int) -> str:
    budget = max(16, tokens * CHARS_PER_TOKEN)
    if len(text) <= budget:
        return text[: max(1, len(text) // 2)]
    half = budget // 2 - 10
    return f"{text[:half]}\n[...]\n{text[-half:]}"


def summarize(
    llm: LLM | None,
    text: str,
    input_tokens: int,
    target_tokens: int,
    cooldown: FailureCooldown | None = None,
    deadline: float | None = None,
    cap_tokens: int | None = None,
    focus: str | None = None,
) -> tuple[str, str]:
    """``(summary, level)``, level one of detailed, bullets, truncated; smaller than the input.

    Without an LLM (or when it fails) the text is cut to its start and end: at most half the
    input, :data:`TRUNCATED_TOKENS` and ``cap_tokens``.

    An LLM failure starts (or escalates) ``cooldown``; a summary the LLM
    wrote ends it. ``deadline`` (``time.monotonic()``) caps each LLM request,
    for a client that takes one. ``focus`` (a manual ``/compress <focus>``) is
    given to the summariser as what to keep most of: it gets most of the summary's
    room, the rest is kept briefly.
    """
    extra = accepted_keywords(llm.complete, {"deadline": deadline}) if llm is not None else {}
    if llm is not None and not (cooldown is not None and cooldown.remaining()):
        for level, instruction, target in (
            ("detailed", _DETAILED, target_tokens),
            ("bullets", _BULLETS, max(32, target_tokens // 2)),
        ):
            try:
                if focus:
                    instruction += _FOCUS.format(focus=focus.strip()[:500])
                answer = llm.complete(
                    [
                        {"role": "system", "content": instruction},
                        {"role": "user", "content": text},
                    ],
                    max_tokens=target,
                    **extra,
                )
            except LLMError as exc:
                seconds = cooldown.failed() if cooldown is not None else None
                logger.warning(
                    "lcm.summary_llm_failed", level=level, error=str(exc), cooldown_seconds=seconds
                )
                break
            if cooldown is not None:
                cooldown.succeeded()
            summary = str(answer.text).strip()
            if summary and estimate_text_tokens(summary) < input_tokens:
                return summary, level
    budget = min(
        TRUNCATED_TOKENS, max(1, input_tokens // 2), max(16, cap_tokens or TRUNCATED_TOKENS)
    )
    return _truncate(text, budget), "truncated"

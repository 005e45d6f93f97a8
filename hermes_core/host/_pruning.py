"""What the host accepts from an engine's ``prune_tool_results_only``.

A prune rewrites old tool results below the compression threshold, without an
LLM. Its answer is kept only when it is ``(a new list, a count above 0)``,
the list a valid message sequence and smaller than what was handed in (the
host's estimate); anything else leaves the caller's list as it was, as
Hermes Agent's no-op contract says (``(messages, 0)``, the very list).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from hermes_core._tokens import estimate_tokens
from hermes_core.messages import validate_messages

__all__ = ["PruneResult", "checked_prune"]


@dataclass(frozen=True)
class PruneResult:
    """An accepted prune: the new list, how many messages changed, and the host's
    estimates of the list before and after."""

    messages: list[Any]
    count: int
    before_tokens: int
    after_tokens: int


def checked_prune(result: object, handed: list[Any]) -> PruneResult | str | None:
    """``result`` as an accepted prune of ``handed``; None when the engine pruned nothing
    (the list handed in, or a count of 0); otherwise what is wrong with it, as text."""
    if not isinstance(result, tuple) or len(result) != 2:
        return f"returned {type(result).__name__}, not a (messages, count) pair"
    pruned, count = result
    if isinstance(count, bool) or not isinstance(count, int) or count < 0:
        return f"returned a count of {type(count).__name__} {count!r}, not a whole number"
    if count == 0 or pruned is handed:
        return None
    if not isinstance(pruned, list) or not pruned:
        return f"returned {type(pruned).__name__} messages, not a non-empty list"
    problems = validate_messages(pruned)
    if problems:
        return "returned an invalid message list: " + "; ".join(str(p) for p in problems[:3])
    before, after = estimate_tokens(handed), estimate_tokens(pruned)
    if after >= before:
        return f"returned a list no smaller than its input ({after} >= {before} tokens)"
    return PruneResult(pruned, count, before, after)

"""Where Hermes Agent's compressor starts the tail it keeps verbatim, release by release.

A plugin built on Hermes' compressor (hermes-context-tuner wraps it) was tuned to what
that compressor keeps, and the stand-in (:mod:`._compressor_stand_in`) keeps the same: the
rules of the release the plugin declares (``requires_hermes`` in its ``plugin.yaml``),
0.22's when it declares none. Written from what each release does, measured by
``tests/e2e/test_real_plugins.py`` against the real ones:

- the tail's budget in tokens: on 0.19, the threshold times ``summary_target_ratio``; on
  0.22, a short recency window: 2.5% of the window, held between 10,000 and 25,000
  tokens, and never more than a fifth of the window;
- rows are taken newest first while the tail stays under one and a half times the
  budget (on 0.22 never past a fifth of the window); when the whole conversation after
  the head fits that, under the budget itself, so a pass still folds something;
- at least ``protect_last_n`` rows stay (between 3 and 8) on 0.19; on 0.22 that floor
  applies only when the ceiling cannot hold it;
- a row is priced as its text at four characters a token, plus 10, plus its tool
  calls at four characters a token.

The compressor behind the stand-in then applies its own guarantees (the last user
message and reply stay, a tool call keeps its results).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

__all__ = ["DEFAULT_RELEASE", "RELEASES", "TailStart", "release_for", "row_tokens", "tail_rule"]

#: The releases whose rules are known, oldest first, each with the version measured.
RELEASES = ("0.19", "0.22")
_MEASURED = {"0.19": "0.19.0", "0.22": "0.22.2"}
#: The rules followed for a plugin that declares no release.
DEFAULT_RELEASE = "0.22"
#: A function of (messages, where the head ends) giving where the kept tail starts.
TailStart = Callable[[Sequence[Any], int], int]

_CHARS_PER_TOKEN = 4
_ROW_OVERHEAD = 10
_SOFT_CEILING = 1.5
_FLOOR_LOW, _FLOOR_HIGH = 3, 8
_LEAN_SHARE, _LEAN_LOW, _LEAN_HIGH = 0.025, 10_000, 25_000
_WINDOW_SHARE = 0.20


def release_for(requires_hermes: Any) -> str | None:
    """The newest release of :data:`RELEASES` that ``requires_hermes`` (a plugin.yaml's
    version specifier) admits; None when it admits none or is no specifier."""
    from packaging.specifiers import InvalidSpecifier, SpecifierSet

    if not isinstance(requires_hermes, str):
        return None
    try:
        wanted = SpecifierSet(requires_hermes)
    except InvalidSpecifier:
        return None
    admitted = [r for r in RELEASES if wanted.contains(_MEASURED[r], prereleases=True)]
    return admitted[-1] if admitted else None


def _text_length(content: Any) -> int:
    if isinstance(content, str):
        return len(content)
    if isinstance(content, list):
        return sum(
            len(part.get("text") or "") if isinstance(part, dict) else len(str(part))
            for part in content
        )
    return len(str(content)) if content else 0


def row_tokens(message: Any) -> int:
    """What Hermes' tail walk charges for ``message``."""
    if not isinstance(message, dict):
        return _ROW_OVERHEAD
    tokens = _text_length(message.get("content")) // _CHARS_PER_TOKEN + _ROW_OVERHEAD
    for call in message.get("tool_calls") or []:
        tokens += -(-len(str(call)) // _CHARS_PER_TOKEN)
    return tokens


def _walk(prices: list[int], head: int, ceiling: int, floor: int) -> tuple[int, int]:
    """Newest first: the first index kept while the total stays under ``ceiling`` (once
    ``floor`` rows are kept), and the total."""
    count, total, cut = len(prices), 0, len(prices)
    for index in range(count - 1, head - 1, -1):
        if total + prices[index] > ceiling and count - index >= floor:
            return cut, total
        total += prices[index]
        cut = index
    return cut, total


def tail_rule(
    release: str,
    context_length: int,
    threshold_tokens: int,
    target_ratio: float,
    protect_last_n: int,
) -> TailStart:
    """Where ``release``'s compressor starts the tail, for a model of ``context_length``."""
    if release not in RELEASES:
        raise ValueError(f"no tail rules for Hermes Agent {release}: known are {RELEASES}")
    if release == "0.19":
        budget = int(threshold_tokens * target_ratio)
        ceiling = int(budget * _SOFT_CEILING)
    else:
        budget = max(_LEAN_LOW, min(_LEAN_HIGH, int(context_length * _LEAN_SHARE)))
        ceiling = int(budget * _SOFT_CEILING)
        if context_length > 0:
            budget = min(budget, int(context_length * _WINDOW_SHARE))
            ceiling = min(ceiling, int(context_length * _WINDOW_SHARE))
        budget = max(1, budget)
        ceiling = max(ceiling, budget)

    def start(messages: Sequence[Any], head: int) -> int:
        prices = [row_tokens(m) for m in messages]
        count = len(messages)
        available = max(0, count - head - 1)
        floor = max(_FLOOR_LOW, min(protect_last_n, _FLOOR_HIGH))
        least = min(floor, max(3, available - 2), available) if available > 1 else 0
        walk_floor = least if release == "0.19" or ceiling < least * _ROW_OVERHEAD else 0
        cut, total = _walk(prices, head, ceiling, walk_floor)
        if cut <= head and 0 < total <= ceiling:  # it all fits: fold down to the budget
            cut, _ = _walk(prices, head, budget, least)
            cut = max(cut - 1, head) if cut > head else cut
        # the newest row always stays (0.19's anchors keep it, 0.22 says so)
        newest_kept = max(least, 1) if release == "0.19" else max(walk_floor, 1)
        cut = min(cut, count - newest_kept)
        if cut <= head:
            cut = max(count - least, head + 1)
        return min(cut, max(count - 1, head + 1))

    return start

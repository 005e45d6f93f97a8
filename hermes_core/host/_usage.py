"""Usage dicts from providers, normalised so the three canonical keys are always there."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["normalize_usage"]

_CANONICAL = ("prompt_tokens", "completion_tokens", "total_tokens")


def _count(value: Any) -> int:
    if isinstance(value, bool):
        return 0
    if isinstance(value, int):
        return max(0, value)
    if isinstance(value, float) and value == value:  # not NaN
        return max(0, int(value))
    return 0


def normalize_usage(usage: Any) -> dict[str, Any]:
    """A usage dict with ``prompt_tokens``, ``completion_tokens`` and ``total_tokens`` as ints >= 0.

    Provider spellings ``input_tokens`` / ``output_tokens`` fill the first two
    when missing; a missing total is their sum. Every other key is kept.
    Anything that is not a mapping counts as empty usage. A dict that
    already has the three keys as plain ints is returned as it is.
    """
    if usage.__class__ is dict:
        try:
            if (
                usage["prompt_tokens"].__class__ is int
                and usage["completion_tokens"].__class__ is int
                and usage["total_tokens"].__class__ is int
            ):
                return usage
        except KeyError:
            pass
    data = dict(usage) if isinstance(usage, Mapping) else {}
    prompt = data.get("prompt_tokens", data.get("input_tokens"))
    completion = data.get("completion_tokens", data.get("output_tokens"))
    data["prompt_tokens"] = _count(prompt)
    data["completion_tokens"] = _count(completion)
    total = data.get("total_tokens")
    data["total_tokens"] = (
        _count(total) if total is not None else data["prompt_tokens"] + data["completion_tokens"]
    )
    return data

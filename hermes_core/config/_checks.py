"""Checks for configuration values, shared by hermes-context's keys and engines' own sections."""

from __future__ import annotations

import math
from collections.abc import Callable

__all__ = ["is_bool", "is_fraction", "is_number", "seconds", "share", "whole_number"]


def is_number(value: object) -> bool:
    """A finite int or float (booleans, ``.inf`` and ``.nan`` are not numbers here)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    return math.isfinite(value)


def seconds(minimum: float, maximum: float, *, above: bool = False) -> Callable[[object], bool]:
    """A check for a finite number of seconds from ``minimum`` (or above it, with ``above``)
    to ``maximum``: a bound that fits ``time.monotonic()`` arithmetic and a thread's wait."""

    def check(value: object) -> bool:
        if not is_number(value):
            return False
        low_ok = value > minimum if above else value >= minimum  # type: ignore[operator]
        return low_ok and value <= maximum  # type: ignore[operator]

    return check


def is_fraction(value: object) -> bool:
    """A number greater than 0 and at most 1."""
    return is_number(value) and 0 < value <= 1  # type: ignore[operator]


def share(minimum: float, maximum: float) -> Callable[[object], bool]:
    """A check for a number from ``minimum`` to ``maximum``, both included."""

    def check(value: object) -> bool:
        return is_number(value) and minimum <= value <= maximum  # type: ignore[operator]

    return check


def is_bool(value: object) -> bool:
    """true or false."""
    return isinstance(value, bool)


def whole_number(minimum: int, maximum: int | None = None) -> Callable[[object], bool]:
    """A check for an int from ``minimum`` (to ``maximum``, when given); booleans fail it."""

    def check(value: object) -> bool:
        if not isinstance(value, int) or isinstance(value, bool) or value < minimum:
            return False
        return maximum is None or value <= maximum

    return check

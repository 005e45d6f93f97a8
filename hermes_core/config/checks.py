"""Checks for configuration values, shared by hermes-context's keys and engines' own sections."""

from __future__ import annotations

from collections.abc import Callable

__all__ = ["is_bool", "is_fraction", "is_number", "whole_number"]


def is_number(value: object) -> bool:
    """An int or float (booleans are not numbers here)."""
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def is_fraction(value: object) -> bool:
    """A number greater than 0 and at most 1."""
    return is_number(value) and 0 < value <= 1  # type: ignore[operator]


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

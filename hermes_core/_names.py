"""What a valid engine name looks like."""

from __future__ import annotations

import re

__all__ = ["DEFAULT_ENGINE", "ENGINE_NAME_RULE", "is_valid_engine_name"]

#: The engine used when nothing is selected and when the selected one fails.
DEFAULT_ENGINE = "compressor"

_ENGINE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")

#: The rule in words, for error messages.
ENGINE_NAME_RULE = (
    "an engine name: 1-64 letters, digits, '_', '-' or '.', starting with a letter or digit "
    "(no path separators, no '..')"
)


def is_valid_engine_name(name: object) -> bool:
    """True when ``name`` is a string that can name an engine and can never be read as a path."""
    return isinstance(name, str) and bool(_ENGINE_NAME.fullmatch(name)) and ".." not in name

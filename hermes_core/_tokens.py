"""Rough token counts: characters / 4, rounded up, behind a small interface.

The host uses this for the before/after figures of a compression pass;
engines may use it or plug in an exact tokenizer (any object with
``count_messages``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import Any, Protocol

__all__ = [
    "CHARS_PER_TOKEN",
    "CharEstimator",
    "TokenCounter",
    "estimate_message_tokens",
    "estimate_text_tokens",
    "estimate_tokens",
]

#: Characters counted as one token.
CHARS_PER_TOKEN = 4

#: Flat cost of an image part, in tokens.
IMAGE_TOKENS = 765
#: Per-message envelope (role, separators), in tokens.
MESSAGE_OVERHEAD = 4


class TokenCounter(Protocol):
    """Anything that can count the tokens of a message list."""

    def count_messages(self, messages: Iterable[Any]) -> int: ...


#: Characters ``json.dumps`` writes as an escape sequence longer than the character.
_CONTROL = re.compile(r"[\x00-\x1f]")
_SCALAR_LENGTHS = {True: 4, False: 5}


def _json_string_length(text: str) -> int:
    if _CONTROL.search(text) is not None:
        return len(json.dumps(text, ensure_ascii=False))
    return len(text) + 2 + text.count('"') + text.count("\\")


def json_length(value: Any) -> int:
    """``len(json.dumps(value, ensure_ascii=False, default=str))``, computed without writing
    the JSON for the shapes messages hold (dicts with text keys, lists, text, numbers)."""
    cls = value.__class__
    if cls is str:
        return _json_string_length(value)
    if cls is dict:
        if not value:
            return 2
        total = 2 * len(value)  # braces, and ", " between items (one fewer) plus ": " each
        for key, item in value.items():
            if key.__class__ is not str:
                return len(json.dumps(value, ensure_ascii=False, default=str))
            total += _json_string_length(key) + 2 + json_length(item)
        return total
    if cls is list:
        if not value:
            return 2
        return 2 * len(value) + sum(json_length(item) for item in value)
    if cls is bool:
        return _SCALAR_LENGTHS[value]
    if value is None:
        return 4
    if cls is int:
        return len(str(value))
    return len(json.dumps(value, ensure_ascii=False, default=str))


def _chars(value: Any) -> int:
    if value is None:
        return 0
    if isinstance(value, str):
        return len(value)
    return json_length(value)


def estimate_text_tokens(text: str) -> int:
    """Tokens of a text: characters / :data:`CHARS_PER_TOKEN`, rounded up."""
    return -(-len(text) // CHARS_PER_TOKEN)


def estimate_message_tokens(message: Any) -> int:
    """Tokens of one message: its text, content parts and tool-call envelopes, chars / 4 rounded up.

    Image parts count a flat ``IMAGE_TOKENS`` (765).
    """
    if not isinstance(message, dict):
        return MESSAGE_OVERHEAD
    chars = 0
    images = 0
    content = message.get("content")
    if isinstance(content, list):
        for part in content:
            if isinstance(part, dict) and part.get("type") in ("image_url", "input_image", "image"):
                images += 1
            elif isinstance(part, dict):
                chars += _chars(part.get("text", part))
            else:
                chars += _chars(part)
    else:
        chars += _chars(content)
    calls = message.get("tool_calls")
    if calls:
        chars += _chars(calls)
    return MESSAGE_OVERHEAD + -(-chars // CHARS_PER_TOKEN) + images * IMAGE_TOKENS


def estimate_tokens(messages: Iterable[Any]) -> int:
    """Tokens of a message list by :func:`estimate_message_tokens`."""
    return sum(estimate_message_tokens(m) for m in messages)


class CharEstimator:
    """The default :class:`TokenCounter`: characters / 4."""

    def count_messages(self, messages: Iterable[Any]) -> int:
        return estimate_tokens(messages)

"""Hermes Agent's rough token estimates, for plugins that import them from
``agent.context_compressor`` where Hermes Agent is not installed.

Hermes counts about four characters a token, rounded up so that no short text
costs nothing, and an image part a flat 1,500 tokens instead of its base64
length (Hermes 0.19's ``agent.model_metadata``; 0.22 refines both, and a
plugin that needs 0.22's figures runs inside Hermes). A message is measured
as Hermes measures it: the text of the whole message, its image data left out.
"""

from __future__ import annotations

from typing import Any

__all__ = [
    "CHARS_PER_TOKEN",
    "IMAGE_TOKENS",
    "MINIMUM_CONTEXT_LENGTH",
    "estimate_messages_tokens_rough",
    "estimate_tokens_rough",
]

#: Characters a token, as Hermes estimates.
CHARS_PER_TOKEN = 4
#: What Hermes counts for one image part.
IMAGE_TOKENS = 1_500
#: The smallest window Hermes runs a model with (and its compressor's lowest threshold).
MINIMUM_CONTEXT_LENGTH = 64_000
_IMAGE_TYPES = frozenset({"image", "image_url", "input_image"})


def estimate_tokens_rough(text: str) -> int:
    """About a token per four characters of ``text``, rounded up; 0 for no text."""
    if not text:
        return 0
    return -(-len(str(text)) // CHARS_PER_TOKEN)


def _is_image(part: Any) -> bool:
    return isinstance(part, dict) and part.get("type") in _IMAGE_TYPES


def _without_images(message: Any) -> Any:
    """``message`` as Hermes measures it: image parts reduced to their type."""
    if not isinstance(message, dict):
        return message
    shown = {}
    for key, value in message.items():
        if key == "_anthropic_content_blocks":
            continue
        if key == "content" and isinstance(value, list):
            value = [
                {"type": part["type"], "image": "[stripped]"} if _is_image(part) else part
                for part in value
            ]
        elif key == "content" and isinstance(value, dict) and value.get("_multimodal"):
            value = value.get("text_summary", "")
        shown[key] = value
    return shown


def _images(message: Any) -> int:
    content = message.get("content") if isinstance(message, dict) else None
    return sum(_is_image(part) for part in content) if isinstance(content, list) else 0


def estimate_messages_tokens_rough(messages: list[dict[str, Any]], **_: Any) -> int:
    """The tokens of ``messages`` as Hermes estimates them before a call: their text at
    :data:`CHARS_PER_TOKEN`, rounded up, and :data:`IMAGE_TOKENS` an image. Keyword options
    of later releases (``charge_stale_thinking``) are accepted."""
    chars = sum(len(str(_without_images(message))) for message in messages)
    images = sum(_images(message) for message in messages)
    return -(-chars // CHARS_PER_TOKEN) + images * IMAGE_TOKENS

"""The engine attributes Hermes Agent reads and writes directly, and properties forwarding them.

Both bridges hold one engine inside another: the adapter (our engine inside
Hermes) and the wrapper (a Hermes engine on our host). The counters live on
the inner engine; the outer one forwards each of them with a property.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = ["ENGINE_ATTRIBUTES", "forwarding"]

#: Read (and some written) by Hermes Agent without a fallback; the base classes define them.
ENGINE_ATTRIBUTES = (
    "last_prompt_tokens",
    "last_completion_tokens",
    "last_total_tokens",
    "threshold_tokens",
    "context_length",
    "compression_count",
    "threshold_percent",
    "protect_first_n",
    "protect_last_n",
)


def forwarding(attribute: str, inner: Callable[[Any], Any]) -> property:
    """A property that reads and writes ``attribute`` on ``inner(self)``."""

    def get(self: Any) -> Any:
        return getattr(inner(self), attribute)

    def set_(self: Any, value: Any) -> None:
        setattr(inner(self), attribute, value)

    return property(get, set_, doc=f"The inner engine's ``{attribute}``.")

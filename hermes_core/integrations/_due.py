"""Whether a compaction pass is due, as Hermes Agent 0.22 decides it: shared by the
frameworks' integrations."""

from __future__ import annotations

from collections.abc import Callable

from hermes_core._engine import ContextEngine, Message
from hermes_core.host import ContextHost

__all__ = ["pass_due"]


def pass_due(host: ContextHost, tokens: int, messages: Callable[[], list[Message]]) -> bool:
    """At the threshold (``should_compress(tokens)``), or below it when the engine's
    ``should_compress_preflight`` asks for one pass, as Hermes 0.22 asks every turn.
    ``messages`` makes the conversation for that question; it is called only for an
    engine that answers it (one that keeps the base class's default never says yes)."""
    if host.should_compress(tokens):
        return True
    asked = getattr(type(host.engine), "should_compress_preflight", None)
    if asked is ContextEngine.should_compress_preflight:
        return False
    return host.should_compress_preflight(messages())

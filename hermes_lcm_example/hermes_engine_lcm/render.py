"""Turning stored nodes into chat messages."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from hermes_core import render_turns as render_messages
from hermes_engine_lcm.store.messages import storable_text
from hermes_engine_lcm.store.nodes import SummaryRow

__all__ = ["SUMMARY_PREFIX", "is_lcm_summary", "render_turns", "summary_message"]

#: Every summary message LCM puts in a request starts with this.
SUMMARY_PREFIX = "[LCM summary of earlier turns]"


def is_lcm_summary(message: Any) -> bool:
    content = message.get("content") if isinstance(message, dict) else None
    return isinstance(content, str) and content.startswith(SUMMARY_PREFIX)


def summary_message(summaries: Sequence[SummaryRow]) -> dict[str, Any]:
    """One user message holding consecutive summaries, oldest first."""
    blocks = [f"### S{s.id} (messages {s.first_seq}-{s.last_seq})\n{s.text}" for s in summaries]
    return {"role": "user", "content": SUMMARY_PREFIX + "\n\n" + "\n\n".join(blocks)}


def render_turns(messages: Sequence[dict[str, Any]]) -> str:
    """Messages as text for a summariser (:func:`hermes_core.messages.render_turns`), in what
    SQLite and the LLM's JSON body can carry (a lone surrogate becomes U+FFFD)."""
    return storable_text(render_messages(messages))

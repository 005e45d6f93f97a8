"""Turning stored nodes into chat messages."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

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
    """Messages as text for a summariser: role, content, tool calls."""
    blocks = []
    for message in messages:
        content = message.get("content")
        if isinstance(content, list):
            content = " ".join(
                p.get("text", "[" + str(p.get("type", "part")) + "]")
                for p in content
                if isinstance(p, dict)
            )
        lines = [f"[{message.get('role')}] {content or ''}".rstrip()]
        for call in message.get("tool_calls") or ():
            function = call.get("function") or {}
            lines.append(f"  -> {function.get('name')}({function.get('arguments')})")
        blocks.append("\n".join(lines))
    # what SQLite and the LLM's JSON body can carry (a lone surrogate becomes U+FFFD)
    return storable_text("\n\n".join(blocks))

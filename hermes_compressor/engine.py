"""A lossy compressor: keep the head and the tail, replace the middle with a summary.

This is the first cut of the default engine: boundaries that never split a
tool call from its results, and a deterministic summary of what was dropped.
LLM summaries, pruning and cooldowns come with the full compressor.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from hermes_core import ContextEngine, Message

__all__ = ["SUMMARY_PREFIX", "CompressorEngine"]

SUMMARY_PREFIX = "[Reference summary of earlier turns; the original messages were compacted]"
_MAX_SUMMARY_CHARS = 8_000


class CompressorEngine(ContextEngine):
    """Summarising compressor, the default context engine."""

    threshold_percent = 0.5

    def __init__(self, config: Mapping[str, Any] | None = None) -> None:
        compression = dict((config or {}).get("compression") or {})
        self.threshold_percent = float(compression.get("threshold", 0.5))
        self.protect_first_n = int(compression.get("protect_first_n", 3))
        self.protect_last_n = int(compression.get("protect_last_n", 20))

    @property
    def name(self) -> str:
        return "compressor"

    def update_from_response(self, usage: dict[str, Any]) -> None:
        self.last_prompt_tokens = int(usage.get("prompt_tokens", 0))
        self.last_completion_tokens = int(usage.get("completion_tokens", 0))
        self.last_total_tokens = int(usage.get("total_tokens", 0))

    def should_compress(self, prompt_tokens: int | None = None) -> bool:
        tokens = self.last_prompt_tokens if prompt_tokens is None else prompt_tokens
        return self.threshold_tokens > 0 and tokens >= self.threshold_tokens

    def has_content_to_compress(self, messages: list[Message]) -> bool:
        head, tail = self._boundaries(messages)
        return tail > head

    def compress(
        self,
        messages: list[Message],
        current_tokens: int | None = None,
        focus_topic: str | None = None,
    ) -> list[Message]:
        head, tail = self._boundaries(messages)
        if tail <= head:
            return list(messages)
        summary = _summarise(messages[head:tail], focus_topic)
        self.compression_count += 1
        self.last_prompt_tokens = -1
        return [*messages[:head], {"role": "user", "content": summary}, *messages[tail:]]

    def _boundaries(self, messages: list[Message]) -> tuple[int, int]:
        """Indices [head, tail) of the middle that may be summarised."""
        head = 0
        while head < len(messages) and messages[head].get("role") == "system":
            head += 1
        head = min(len(messages), head + self.protect_first_n)
        while head < len(messages) and messages[head].get("role") == "tool":
            head += 1  # never separate tool results from the call in the head
        tail = max(head, len(messages) - self.protect_last_n)
        while head < tail < len(messages) and messages[tail].get("role") == "tool":
            tail -= 1  # start the tail at the assistant message that made the calls
        return head, tail


def _summarise(dropped: list[Message], focus_topic: str | None) -> str:
    asks = [m for m in dropped if m.get("role") == "user" and isinstance(m.get("content"), str)]
    lines = [SUMMARY_PREFIX, f"{len(dropped)} messages were summarised."]
    if focus_topic:
        lines.append(f"Focus: {focus_topic}")
    if asks:
        lines.append(f"Latest user ask: {asks[-1]['content']}")
    tools = sorted(
        {
            call.get("function", {}).get("name", "?")
            for m in dropped
            for call in m.get("tool_calls") or []
        }
    )
    if tools:
        lines.append(f"Tools used: {', '.join(tools)}")
    return "\n".join(lines)[:_MAX_SUMMARY_CHARS]

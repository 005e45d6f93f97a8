"""The ``ContextEngine`` contract every context engine implements.

A context engine decides what an agent's conversation history becomes when it
outgrows the model's window. Exactly one engine is active per agent; the host
calls the methods below at fixed points of the agent loop. Only ``name``,
``update_from_response``, ``should_compress`` and ``compress`` are required;
every other method has a default that is safe to inherit.
"""

from __future__ import annotations

import copy
import json
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, TypeVar

from hermes_core._thresholds import resolve_model_threshold
from hermes_core.hooks._types import Message, Messages, ToolSchema, Usage

if TYPE_CHECKING:
    from hermes_core.config._rules import KeyRule

__all__ = ["ContextEngine", "Message"]

_Engine = TypeVar("_Engine", bound="ContextEngine")


class ContextEngine(ABC):
    """Abstract base class of every context engine.

    The host reads the counters below directly for display and logging, so an
    engine keeps them current. ``last_prompt_tokens == -1`` means "compression
    just ran; wait for real usage". ``model_thresholds`` is assigned by the
    host before the first :meth:`update_model` call.
    """

    last_prompt_tokens: int = 0
    last_completion_tokens: int = 0
    last_total_tokens: int = 0
    threshold_tokens: int = 0
    context_length: int = 0
    compression_count: int = 0
    threshold_percent: float = 0.75
    #: Non-system head messages a pass keeps verbatim (the system prompt always is).
    #: Hermes Agent reads it, without a fallback, for its preflight check.
    protect_first_n: int = 3
    #: Tail messages a pass keeps verbatim. Hermes Agent reads it too.
    protect_last_n: int = 6
    model_thresholds: Mapping[str, float] = MappingProxyType({})
    #: False keeps automatic passes silent (no status line for the user); warnings,
    #: errors and a manual ``/compress`` are shown all the same. Hermes Agent 0.22 reads it.
    emit_automatic_compaction_status: bool = True
    #: False while :meth:`prepare_compress` has nothing to prepare (the compressor and
    #: lcm without an auxiliary LLM): the host then hands it no copy of the conversation.
    prepares_ahead: bool = True
    #: The config.yaml sections the engine reads, each with its keys' rules
    #: (``{"lcm": RULES}``): ``hermes-context engines`` and ``doctor`` check them, unknown
    #: keys included, without building the engine. Read from the class, never an instance.
    config_rules: Mapping[str, Sequence[KeyRule]] = MappingProxyType({})
    #: How the text the engine writes into a conversation begins (its summaries, its
    #: notes), for a label that does not follow the convention (a bracketed label naming a
    #: summary, ``[My engine's summary] ...``, needs none): readers of a stored
    #: conversation (``replay --hermes-session``) never take such text for the user's.
    summary_markers: tuple[str, ...] = ()
    # The threshold the engine was configured with, remembered at the first
    # update_model() so that leaving an overridden model restores it.
    _configured_threshold_percent: float | None = None

    # ------------------------------------------------------------------ required

    @property
    @abstractmethod
    def name(self) -> str:
        """Short identifier, e.g. ``"lcm"``; equal to the name it is registered and selected by."""

    @abstractmethod
    def update_from_response(self, usage: dict[str, Any]) -> None:
        """Record the usage of the last provider response.

        ``usage`` always has ``prompt_tokens``, ``completion_tokens`` and
        ``total_tokens``; it may also have ``input_tokens``, ``output_tokens``,
        ``cache_read_tokens``, ``cache_write_tokens`` and ``reasoning_tokens``.
        """

    @abstractmethod
    def should_compress(self, prompt_tokens: int | None = None) -> bool:
        """Return True when a compression pass should run now."""

    @abstractmethod
    def compress(
        self,
        messages: Messages,
        current_tokens: int | None = None,
        focus_topic: str | None = None,
    ) -> Messages:
        """Compact ``messages`` and return a new, valid OpenAI-format message list.

        ``focus_topic`` comes from a manual ``/compress <focus>``; engines that
        support guided compression keep what relates to it. The host passes
        ``force`` and ``memory_context`` as keywords only to engines whose
        signature accepts them.
        """

    # ------------------------------------------------------------------ optional

    def prepare_compress(
        self,
        messages: Messages,
        current_tokens: int | None = None,
        session_id: str = "",
        deadline: float | None = None,
    ) -> None:
        """Prepare the next pass's summaries in the background (see the hookspec).

        Default: nothing, so the next pass summarises when it runs.
        """
        return None

    def should_compress_info(self, prompt_tokens: int | None = None) -> tuple[bool, str | None]:
        """Return ``(should_compress, reason)``.

        ``reason`` says why compression is blocked (``"cooldown:<seconds>"``,
        ``"ineffective"``) and is ``None`` otherwise. The default wraps
        :meth:`should_compress` with no reason.
        """
        return self.should_compress(prompt_tokens), None

    def should_compress_preflight(self, messages: Messages) -> bool:
        """Cheap estimate before a provider call; True asks for exactly one pass. Default: False."""
        return False

    def should_defer_preflight_to_real_usage(self, rough_tokens: int) -> bool:
        """True when the preflight check should trust the last real usage over a rough
        estimate of ``rough_tokens`` (a compressed request that already fit). Default: False."""
        return False

    def has_content_to_compress(self, messages: Messages) -> bool:
        """Return False when a pass could not free anything. Default: True."""
        return True

    def on_session_start(self, session_id: str, **kwargs: Any) -> None:
        """A conversation begins; load persisted state. Default: no-op.

        The host may pass ``hermes_home``, ``platform``, ``model``,
        ``context_length``, ``conversation_id`` and, on a session rotation,
        ``boundary_reason`` and ``old_session_id``.
        """
        return None

    def on_session_end(self, session_id: str, messages: Messages) -> None:
        """A real session boundary (exit, reset, gateway expiry); flush state. Default: no-op."""
        return None

    def on_session_reset(self) -> None:
        """``/new`` or ``/reset``: zero the three token counters and ``compression_count``."""
        self.last_prompt_tokens = 0
        self.last_completion_tokens = 0
        self.last_total_tokens = 0
        self.compression_count = 0

    def close(self) -> None:
        """The host is done with this engine: release what it holds (connections, files,
        threads). Called at most once, last; it must not raise. Default: no-op."""
        return None

    def update_model(
        self,
        model: str,
        context_length: int,
        base_url: str = "",
        api_key: str = "",
        provider: str = "",
        api_mode: str = "",
    ) -> None:
        """The model changed (start-up, switch or fallback).

        Sets ``context_length``; resolves the per-model override from
        ``model_thresholds`` (see :func:`~hermes_core.resolve_model_threshold`),
        falling back to the threshold this engine had at its first call, and
        sets ``threshold_tokens = int(context_length * threshold_percent)``.
        """
        configured = self._configured_threshold_percent
        if configured is None:
            configured = self._configured_threshold_percent = self.threshold_percent
        self.context_length = context_length
        self.threshold_percent = resolve_model_threshold(
            model, self.model_thresholds, configured, provider
        )
        self.threshold_tokens = int(context_length * self.threshold_percent)

    def get_tool_schemas(self) -> list[ToolSchema]:
        """JSON-schema descriptions of the tools this engine offers the model. Default: none."""
        return []

    def handle_tool_call(self, name: str, args: dict[str, Any], **kwargs: Any) -> str:
        """Run one of this engine's tools and return its result as JSON text.

        ``kwargs`` may carry ``messages``. The default answers every name with
        ``{"error": "Unknown context engine tool: <name>"}``.
        """
        return json.dumps({"error": f"Unknown context engine tool: {name}"})

    def get_status(self) -> dict[str, Any]:
        """Token and threshold figures for display.

        Keys: ``last_prompt_tokens`` (never below 0), ``threshold_tokens``,
        ``context_length``, ``usage_percent`` (0-100; 0 when the context
        length is unknown) and ``compression_count``.
        """
        last = max(0, self.last_prompt_tokens)
        usage = min(100.0, last / self.context_length * 100) if self.context_length else 0.0
        return {
            "last_prompt_tokens": last,
            "threshold_tokens": self.threshold_tokens,
            "context_length": self.context_length,
            "usage_percent": usage,
            "compression_count": self.compression_count,
        }

    def select_context(
        self,
        request_messages: Messages,
        *,
        conversation_messages: Messages | None = None,
        incoming_message: Message | None = None,
        budget_tokens: int = 0,
    ) -> Messages | None:
        """Replace the messages of this one provider request, or return None to keep them.

        Runs before every provider request (again on retries). The engine
        receives copies; the persisted history is never changed. ``None``,
        ``[]``, a non-list or a list with non-dict items keep the original
        request. ``budget_tokens`` is the model's context length. An engine
        that does not override this method is never called.
        """
        return None

    def prune_tool_results_only(
        self, messages: Messages, current_tokens: int | None = None
    ) -> tuple[Messages, int]:
        """Shrink old tool results without an LLM, below the compression threshold.

        Return a new list and how many messages changed, or ``(messages, 0)``
        with the very list handed in when nothing is worth it (the caller keeps
        its list unless it gets a new one and a count above 0). The engine
        decides when: ``current_tokens`` is the last real prompt size. Default:
        ``(messages, 0)``.
        """
        return messages, 0

    def get_automatic_compaction_status_message(
        self, *, phase: str, default_message: str, **context: Any
    ) -> str | None:
        """The status line shown when an automatic pass starts, or None to show nothing.

        ``phase`` says where (``"preflight"``, ``"compress"``, ``"idle"``);
        ``context`` may carry ``approx_tokens`` and ``threshold_tokens``. Default:
        ``default_message``, or None when ``emit_automatic_compaction_status``
        is False.
        """
        return default_message if self.emit_automatic_compaction_status else None

    def clone_for_agent(self) -> ContextEngine:
        """An engine of its own for another agent, e.g. a sub-agent.

        Default: ``copy.deepcopy(self)``. Override it when the engine holds what
        must not be copied (connections, locks, threads): build a fresh engine
        over the same durable store and hand it to :meth:`copy_model_figures`,
        which copies what the host and the model set.
        """
        return copy.deepcopy(self)

    #: What :meth:`copy_model_figures` copies: the figures the host and the model set
    #: (thresholds, window), never the engine's own state.
    MODEL_FIGURES: tuple[str, ...] = (
        "model_thresholds",
        "_configured_threshold_percent",
        "threshold_percent",
        "context_length",
        "threshold_tokens",
    )

    def copy_model_figures(self, clone: _Engine) -> _Engine:
        """``clone``, given this engine's model figures (``MODEL_FIGURES``): the
        thresholds the host assigned and the model's window, so a fresh engine built by
        :meth:`clone_for_agent` decides as this one does from its first response. Returns
        ``clone``."""
        for figure in ContextEngine.MODEL_FIGURES:
            setattr(clone, figure, getattr(self, figure))
        return clone

    def on_turn_complete(
        self, messages: Messages, usage: Usage | None = None, **kwargs: Any
    ) -> None:
        """Observe a finished turn (best effort); the return value is ignored.

        ``messages`` is a copy of the finalised transcript; ``usage`` is
        ``None`` when no provider response arrived. The host may pass
        ``turn_id``, ``task_id``, ``api_call_count``, ``interrupted``,
        ``failed`` and ``turn_exit_reason``.
        """
        return None

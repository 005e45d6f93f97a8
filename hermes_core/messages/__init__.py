"""OpenAI chat-message sequences: what makes one valid."""

from hermes_core.messages._copying import copy_message, copy_messages
from hermes_core.messages._provenance import (
    ENGINE_MARKERS,
    SUMMARY_LABEL,
    engine_written,
    is_users_words,
)
from hermes_core.messages._repair import sanitize_tool_pairs
from hermes_core.messages._text import render_turns, role_of, text_of
from hermes_core.messages._validation import (
    MAX_NESTING,
    ROLES,
    MessageProblem,
    validate_messages,
)

__all__ = [
    "ENGINE_MARKERS",
    "MAX_NESTING",
    "ROLES",
    "SUMMARY_LABEL",
    "MessageProblem",
    "copy_message",
    "copy_messages",
    "engine_written",
    "is_users_words",
    "render_turns",
    "role_of",
    "sanitize_tool_pairs",
    "text_of",
    "validate_messages",
]

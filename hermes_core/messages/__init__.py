"""OpenAI chat-message sequences: what makes one valid."""

from hermes_core.messages.validation import ROLES, MessageProblem, validate_messages

__all__ = ["ROLES", "MessageProblem", "validate_messages"]

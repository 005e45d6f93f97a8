"""What can go wrong when an engine asks the auxiliary LLM for something.

Engines decide by class: :class:`LLMAuthError`, :class:`LLMQuotaError` and
:class:`LLMNetworkError` mean "the LLM cannot be reached as configured; stop
and leave the context alone"; :class:`LLMResponseError` means "it answered,
but not usefully; fall back to something deterministic".
"""

from __future__ import annotations

from hermes_core.errors import HermesError

__all__ = [
    "LLMAuthError",
    "LLMError",
    "LLMNetworkError",
    "LLMQuotaError",
    "LLMResponseError",
]


class LLMError(HermesError):
    """Base class; ``status`` is the HTTP status when there was one. A
    :class:`~hermes_core.HermesError`, like every error hermes-context raises."""

    def __init__(self, message: str, *, status: int | None = None) -> None:
        super().__init__(message)
        self.status = status


class LLMAuthError(LLMError):
    """401 or 403: the key is missing, wrong or not allowed to use the model."""


class LLMQuotaError(LLMError):
    """402, a quota-exhausted 429, or 429 still answered after every retry."""


class LLMNetworkError(LLMError):
    """No answer: connection refused, DNS failure, or a timeout."""


class LLMResponseError(LLMError):
    """An answer that cannot be used: a malformed body, no text, or a 4xx/5xx error."""

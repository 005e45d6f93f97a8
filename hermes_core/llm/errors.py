"""What can go wrong when an engine asks the auxiliary LLM for something.

Engines decide by class: :class:`LLMAuthError`, :class:`LLMQuotaError` and
:class:`LLMNetworkError` mean "the LLM cannot be reached as configured; stop
and leave the context alone"; :class:`LLMResponseError` means "it answered,
but not usefully; fall back to something deterministic". They are defined, with
every other error of hermes-context, in :mod:`hermes_core.errors`.
"""

from __future__ import annotations

from hermes_core.errors import (
    LLMAuthError,
    LLMError,
    LLMNetworkError,
    LLMQuotaError,
    LLMResponseError,
)

__all__ = [
    "LLMAuthError",
    "LLMError",
    "LLMNetworkError",
    "LLMQuotaError",
    "LLMResponseError",
]

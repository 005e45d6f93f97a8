"""The auxiliary LLM client that the host hands to engines (``llm=`` factory keyword)."""

from typing import TYPE_CHECKING

from hermes_core._errors import (
    LLMAuthError,
    LLMError,
    LLMNetworkError,
    LLMQuotaError,
    LLMResponseError,
)
from hermes_core.llm._config import AuxiliaryLLMConfig
from hermes_core.llm._cooldown import FailureCooldown
from hermes_core.llm._protocol import LLM, Completion

if TYPE_CHECKING:  # at run time the client (and httpx) load on first use, below
    from hermes_core.llm._client import ChatClient, ChatResult

__all__ = [
    "LLM",
    "AuxiliaryLLMConfig",
    "ChatClient",
    "ChatResult",
    "Completion",
    "FailureCooldown",
    "LLMAuthError",
    "LLMError",
    "LLMNetworkError",
    "LLMQuotaError",
    "LLMResponseError",
]


def __getattr__(name: str) -> object:
    # The client imports httpx; load it only when an engine asks for it.
    if name in ("ChatClient", "ChatResult"):
        from hermes_core.llm import _client as client

        return getattr(client, name)
    raise AttributeError(f"module 'hermes_core.llm' has no attribute {name!r}")

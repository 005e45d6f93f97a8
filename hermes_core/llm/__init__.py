"""The auxiliary LLM client that the host hands to engines (``llm=`` factory keyword)."""

from typing import TYPE_CHECKING

from hermes_core.llm.config import AuxiliaryLLMConfig
from hermes_core.llm.cooldown import FailureCooldown
from hermes_core.llm.errors import (
    LLMAuthError,
    LLMError,
    LLMNetworkError,
    LLMQuotaError,
    LLMResponseError,
)
from hermes_core.llm.protocol import LLM, Completion

if TYPE_CHECKING:  # at run time the client (and httpx) load on first use, below
    from hermes_core.llm.client import ChatClient, ChatResult

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
        from hermes_core.llm import client

        return getattr(client, name)
    raise AttributeError(f"module 'hermes_core.llm' has no attribute {name!r}")

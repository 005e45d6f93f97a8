"""Testing tools for engine authors: the contract kit, hosts and throwaway distributions.

Everything but :class:`ContextEngineContract` works without pytest; that
class is imported (with pytest) on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hermes_core.testing._conversations import (
    SAMPLE_FACT,
    agent_turn,
    assistant_calls,
    coding_session,
    reply,
    sample_conversation,
    tool_call,
    tool_result,
    user,
)
from hermes_core.testing._distributions import write_distribution
from hermes_core.testing._engine_source import engine_module_source
from hermes_core.testing._events import EventCapture, capture_events
from hermes_core.testing._hosts import host_for
from hermes_core.testing._offline import example_setting
from hermes_core.testing._openai_server import FakeOpenAI, fake_openai_server
from hermes_core.testing._rules import (
    RULES,
    ContractRule,
    ContractSubject,
    ContractViolation,
    RuleOutcome,
    check_contract,
)
from hermes_core.testing._site import TemporarySite

if TYPE_CHECKING:
    from hermes_core.testing._contract import ContextEngineContract

__all__ = [
    "RULES",
    "SAMPLE_FACT",
    "ContextEngineContract",
    "ContractRule",
    "ContractSubject",
    "ContractViolation",
    "EventCapture",
    "FakeOpenAI",
    "RuleOutcome",
    "TemporarySite",
    "agent_turn",
    "assistant_calls",
    "capture_events",
    "check_contract",
    "coding_session",
    "engine_module_source",
    "example_setting",
    "fake_openai_server",
    "host_for",
    "reply",
    "sample_conversation",
    "tool_call",
    "tool_result",
    "user",
    "write_distribution",
]


def __getattr__(name: str) -> Any:
    if name == "ContextEngineContract":
        from hermes_core.testing._contract import ContextEngineContract

        return ContextEngineContract
    raise AttributeError(f"module 'hermes_core.testing' has no attribute {name!r}")

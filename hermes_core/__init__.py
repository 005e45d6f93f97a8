"""hermes-context: the plugin host for the context engines of LLM agents.

The public API is this package's ``__all__``, and ``hermes_core.testing``
(the contract kit, which needs pytest). Import every name from here
(``from hermes_core import ContextHost, estimate_tokens``): the module a name
lives in is an implementation detail, and may move. ``_version`` and names
starting with ``_`` are private.
"""

from typing import TYPE_CHECKING

from hermes_core import _moved
from hermes_core._containment import UserInterrupt, watch_user_interrupts
from hermes_core._discovery import default_sources, discover
from hermes_core._engine import ContextEngine
from hermes_core._errors import (
    ConfigChangedError,
    ConfigEditError,
    ConfigError,
    ConfigProblem,
    ContractViolation,
    EngineError,
    EngineIncompatibleError,
    EngineLoadError,
    EngineNeedsHermesError,
    EngineNotFoundError,
    EngineValidationError,
    HermesError,
    MissingExtraError,
    NeedsHermesAgent,
    NotAnEngine,
    PlotUnavailableError,
    PluginTimeout,
    SessionStoreError,
    UnknownKey,
    YamlSyntaxError,
)
from hermes_core._log import LOGGER_NAME, EventLogger, event_fields, get_logger
from hermes_core._prune_gate import PruneGate
from hermes_core._redaction import REDACTED, redact
from hermes_core._thresholds import resolve_model_threshold
from hermes_core._tokens import (
    CHARS_PER_TOKEN,
    estimate_message_tokens,
    estimate_text_tokens,
    estimate_tokens,
)
from hermes_core._version import __version__
from hermes_core.config import (
    EngineChoice,
    HermesConfig,
    KeyRule,
    check_section,
    hermes_home,
    is_bool,
    is_fraction,
    is_number,
    load_config,
    read_section,
    report_problems,
    seconds,
    whole_number,
)
from hermes_core.hooks._markers import hookimpl, hookspec
from hermes_core.hooks._record import Hook
from hermes_core.hooks._signatures import accepted_keywords
from hermes_core.hooks._specs import (
    ENGINE_HOOKS,
    HOOKS,
    HOST_OFFERED_KEYWORDS,
    HOST_REQUIRED_ARGUMENTS,
    EngineRegistration,
)
from hermes_core.hooks._types import Message, Messages, ToolSchema, Usage
from hermes_core.host import ContextHost
from hermes_core.host._counters import HostCounters
from hermes_core.llm import (
    LLM,
    AuxiliaryLLMConfig,
    Completion,
    FailureCooldown,
    LLMAuthError,
    LLMError,
    LLMNetworkError,
    LLMQuotaError,
    LLMResponseError,
)
from hermes_core.messages import (
    ENGINE_MARKERS,
    MAX_NESTING,
    ROLES,
    MessageProblem,
    copy_message,
    copy_messages,
    engine_written,
    is_users_words,
    render_turns,
    role_of,
    sanitize_tool_pairs,
    text_of,
    validate_messages,
)
from hermes_core.registry import (
    Activation,
    EngineRecord,
    EngineRegistry,
    EngineSource,
    EngineStatus,
    activate,
)
from hermes_core.sources._entry_points import ENGINE_GROUP, PLUGIN_GROUP
from hermes_core.sources._general_plugins import PluginContext
from hermes_core.sources._source import DiscoveryContext, Source

if TYPE_CHECKING:  # at run time these load on first use, below
    from hermes_core.llm._client import ChatClient, ChatResult
    from hermes_core.standing import SessionInstructions, StandingInstructions

_moved.install()

__all__ = [
    "CHARS_PER_TOKEN",
    "ENGINE_GROUP",
    "ENGINE_HOOKS",
    "ENGINE_MARKERS",
    "HOOKS",
    "HOST_OFFERED_KEYWORDS",
    "HOST_REQUIRED_ARGUMENTS",
    "LLM",
    "LOGGER_NAME",
    "MAX_NESTING",
    "PLUGIN_GROUP",
    "REDACTED",
    "ROLES",
    "Activation",
    "AuxiliaryLLMConfig",
    "ChatClient",
    "ChatResult",
    "Completion",
    "ConfigChangedError",
    "ConfigEditError",
    "ConfigError",
    "ConfigProblem",
    "ContextEngine",
    "ContextHost",
    "ContractViolation",
    "DiscoveryContext",
    "EngineChoice",
    "EngineError",
    "EngineIncompatibleError",
    "EngineLoadError",
    "EngineNeedsHermesError",
    "EngineNotFoundError",
    "EngineRecord",
    "EngineRegistration",
    "EngineRegistry",
    "EngineSource",
    "EngineStatus",
    "EngineValidationError",
    "EventLogger",
    "FailureCooldown",
    "HermesConfig",
    "HermesError",
    "Hook",
    "HostCounters",
    "KeyRule",
    "LLMAuthError",
    "LLMError",
    "LLMNetworkError",
    "LLMQuotaError",
    "LLMResponseError",
    "Message",
    "MessageProblem",
    "Messages",
    "MissingExtraError",
    "NeedsHermesAgent",
    "NotAnEngine",
    "PlotUnavailableError",
    "PluginContext",
    "PluginTimeout",
    "PruneGate",
    "SessionInstructions",
    "SessionStoreError",
    "Source",
    "StandingInstructions",
    "ToolSchema",
    "UnknownKey",
    "Usage",
    "UserInterrupt",
    "YamlSyntaxError",
    "__version__",
    "accepted_keywords",
    "activate",
    "check_section",
    "copy_message",
    "copy_messages",
    "default_sources",
    "discover",
    "engine_written",
    "estimate_message_tokens",
    "estimate_text_tokens",
    "estimate_tokens",
    "event_fields",
    "get_logger",
    "hermes_home",
    "hookimpl",
    "hookspec",
    "is_bool",
    "is_fraction",
    "is_number",
    "is_users_words",
    "load_config",
    "read_section",
    "redact",
    "render_turns",
    "report_problems",
    "resolve_model_threshold",
    "role_of",
    "sanitize_tool_pairs",
    "seconds",
    "text_of",
    "validate_messages",
    "watch_user_interrupts",
    "whole_number",
]


def __getattr__(name: str) -> object:
    # The HTTP client imports httpx; it loads when an engine or embedder first asks for it.
    if name in ("ChatClient", "ChatResult"):
        from hermes_core.llm import _client as client

        return getattr(client, name)
    # Standing instructions compile their patterns at import: an engine that carries them
    # pays for that, not every ``import hermes_core``.
    if name in ("StandingInstructions", "SessionInstructions"):
        from hermes_core import standing

        return getattr(standing, name)
    raise AttributeError(f"module 'hermes_core' has no attribute {name!r}")

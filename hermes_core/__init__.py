"""hermes-context: the plugin host for the context engines of LLM agents.

The public API is re-exported here; submodules starting with ``_`` are private.
"""

from hermes_core._version import __version__
from hermes_core.config import HermesConfig, load_config
from hermes_core.discovery import discover
from hermes_core.engine import ContextEngine, Message
from hermes_core.errors import (
    ConfigError,
    ConfigProblem,
    EngineError,
    EngineIncompatibleError,
    EngineLoadError,
    EngineNeedsHermesError,
    EngineNotFoundError,
    EngineValidationError,
    HermesError,
)
from hermes_core.host import ContextHost
from hermes_core.markers import hookimpl, hookspec
from hermes_core.messages import MessageProblem, sanitize_tool_pairs, validate_messages
from hermes_core.registry import (
    Activation,
    EngineRecord,
    EngineRegistry,
    EngineSource,
    EngineStatus,
    activate,
)
from hermes_core.sources.entry_points import ENGINE_GROUP, PLUGIN_GROUP
from hermes_core.sources.general_plugins import PluginContext
from hermes_core.thresholds import resolve_model_threshold

__all__ = [
    "ENGINE_GROUP",
    "PLUGIN_GROUP",
    "Activation",
    "ConfigError",
    "ConfigProblem",
    "ContextEngine",
    "ContextHost",
    "EngineError",
    "EngineIncompatibleError",
    "EngineLoadError",
    "EngineNeedsHermesError",
    "EngineNotFoundError",
    "EngineRecord",
    "EngineRegistry",
    "EngineSource",
    "EngineStatus",
    "EngineValidationError",
    "HermesConfig",
    "HermesError",
    "Message",
    "MessageProblem",
    "PluginContext",
    "__version__",
    "activate",
    "discover",
    "hookimpl",
    "hookspec",
    "load_config",
    "resolve_model_threshold",
    "sanitize_tool_pairs",
    "validate_messages",
]

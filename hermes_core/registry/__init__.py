"""Discovery and selection of context engines."""

from hermes_core.registry.activation import Activation, activate
from hermes_core.registry.entry_points import ENGINE_GROUP, PLUGIN_GROUP
from hermes_core.registry.general_plugins import PluginContext
from hermes_core.registry.records import EngineRecord, EngineSource, EngineStatus
from hermes_core.registry.registry import EngineRegistry

__all__ = [
    "ENGINE_GROUP",
    "PLUGIN_GROUP",
    "Activation",
    "EngineRecord",
    "EngineRegistry",
    "EngineSource",
    "EngineStatus",
    "PluginContext",
    "activate",
]

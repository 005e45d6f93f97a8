"""The registry of context engines and the single-select gate (discovery fills it:
:mod:`hermes_core.discovery`)."""

from hermes_core.registry.activation import Activation, activate
from hermes_core.registry.records import EngineRecord, EngineSource, EngineStatus
from hermes_core.registry.registry import EngineRegistry

__all__ = [
    "Activation",
    "EngineRecord",
    "EngineRegistry",
    "EngineSource",
    "EngineStatus",
    "activate",
]

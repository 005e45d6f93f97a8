"""The registry of context engines and the single-select gate (discovery fills it:
:mod:`hermes_core._discovery`)."""

from hermes_core.registry._activation import Activation, activate
from hermes_core.registry._records import EngineRecord, EngineSource, EngineStatus
from hermes_core.registry._registry import EngineRegistry

__all__ = [
    "Activation",
    "EngineRecord",
    "EngineRegistry",
    "EngineSource",
    "EngineStatus",
    "activate",
]

"""The hook surface, declared once: the specs, what the house knows about each hook,
the pluggy markers, the types hooks speak in, and how keywords are offered.

``ContextEngineSpec`` mirrors :class:`~hermes_core.ContextEngine`, one hook per
method; ``PluginSpec`` holds the hooks of general plugins. :data:`HOOKS` is the
record of each engine hook (its host method, how it is bounded, what the
caller gets when the engine fails, how Hermes Agent calls it); the host, the
Hermes classes, the validator and the docs read it. The modules inside are
private: import from here (or from :mod:`hermes_core`).
"""

from __future__ import annotations

from hermes_core.hooks._markers import PROJECT_NAME, hookimpl, hookspec
from hermes_core.hooks._record import (
    BACKGROUND,
    BOUNDED,
    INLINE,
    PASS,
    CallKind,
    Hook,
    engine_hook,
)
from hermes_core.hooks._signatures import accepted_keywords, call_with_accepted
from hermes_core.hooks._specs import (
    ENGINE_HOOKS,
    HOOKS,
    HOST_OFFERED_KEYWORDS,
    HOST_REQUIRED_ARGUMENTS,
    ContextEngineSpec,
    EngineRegistration,
    PluginSpec,
)
from hermes_core.hooks._types import Message, Messages, ToolSchema, Usage

__all__ = [
    "BACKGROUND",
    "BOUNDED",
    "ENGINE_HOOKS",
    "HOOKS",
    "HOST_OFFERED_KEYWORDS",
    "HOST_REQUIRED_ARGUMENTS",
    "INLINE",
    "PASS",
    "PROJECT_NAME",
    "CallKind",
    "ContextEngineSpec",
    "EngineRegistration",
    "Hook",
    "Message",
    "Messages",
    "PluginSpec",
    "ToolSchema",
    "Usage",
    "accepted_keywords",
    "call_with_accepted",
    "engine_hook",
    "hookimpl",
    "hookspec",
]

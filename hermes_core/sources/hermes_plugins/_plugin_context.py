"""What a Hermes Agent plugin's ``register(ctx)`` receives on hermes-context's host.

Hermes plugins register tools, hooks, commands, skills, providers and at
most one context engine. This host runs context engines only: the engine is
kept, and every other ``register_*`` call (and ``dispatch_tool``,
``inject_message``) is accepted and logged once as
``hermes_plugin.not_used_here``, never raising, so the plugin's
registration completes as it would in Hermes Agent.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

from hermes_core._log import logger

__all__ = ["HermesPluginContext"]


def _is_an_engine(engine: Any) -> bool:
    """Whether ``engine`` inherits from a context engine class: Hermes Agent's, as the
    plugin imported it (Hermes' own or the stand-in), or hermes-context's."""
    from hermes_core._engine import ContextEngine
    from hermes_core.sources.hermes_plugins._hermes_abc import HermesContextEngine

    hermes = sys.modules.get("agent.context_engine")
    base = getattr(hermes, "ContextEngine", None)
    return isinstance(engine, (ContextEngine, HermesContextEngine)) or (
        isinstance(base, type) and isinstance(engine, base)
    )


class HermesPluginContext:
    """The ``ctx`` of one run of a Hermes plugin's ``register``."""

    def __init__(self, plugin: str, manifest: Any = None, *, checks_type: bool = True) -> None:
        self.plugin = plugin
        self.manifest = manifest
        #: Whether a registered engine must inherit from a context engine class: Hermes'
        #: general plugins are held to it, its engine folders' loader takes what it is given.
        self.checks_type = checks_type
        #: The context engines registered in this run, in order (Hermes keeps the first).
        self.engines: list[Any] = []
        #: What was registered as an engine and is none (its type's name), ignored as
        #: Hermes ignores it.
        self.rejected: list[str] = []
        self._reported: set[str] = set()

    @property
    def llm(self) -> None:
        """Hermes Agent's ``PluginLlm``; not offered here (engines get ``call_llm``)."""
        self._not_used("llm")
        return None

    @property
    def profile_name(self) -> str:
        """Hermes Agent's profile; this host has one, ``default``."""
        return "default"

    def register_context_engine(self, engine: Any) -> None:
        """Keep ``engine``; like Hermes Agent, a second one is ignored, and (where
        :attr:`checks_type`) one that does not inherit from Hermes'
        ``agent.context_engine.ContextEngine`` (or hermes-context's), each with a warning."""
        if self.engines:
            logger.warning(
                "hermes_plugin.second_engine_ignored",
                plugin=self.plugin,
                kept=str(getattr(self.engines[0], "name", "?")),
            )
            return
        if self.checks_type and not _is_an_engine(engine):
            logger.warning(
                "hermes_plugin.not_an_engine", plugin=self.plugin, registered=type(engine).__name__
            )
            self.rejected.append(type(engine).__name__)
            return
        self.engines.append(engine)

    def dispatch_tool(self, tool_name: str, args: Any = None, **kwargs: Any) -> str:
        self._not_used("dispatch_tool")
        return '{"error": "tools are not dispatched by hermes-context\'s host"}'

    def inject_message(self, content: str, role: str = "user") -> bool:
        self._not_used("inject_message")
        return False

    def __getattr__(self, name: str) -> Callable[..., None]:
        if not name.startswith("register_"):
            raise AttributeError(f"Hermes Agent's plugin context has no attribute {name!r}")

        def accepted(*args: Any, **kwargs: Any) -> None:
            self._not_used(name)

        return accepted

    def _not_used(self, what: str) -> None:
        if what in self._reported:
            return
        self._reported.add(what)
        logger.info(
            "hermes_plugin.not_used_here",
            plugin=self.plugin,
            call=what,
            message=f"Hermes plugin '{self.plugin}' called ctx.{what}: hermes-context's host "
            "runs context engines only, so this is accepted and not used",
        )

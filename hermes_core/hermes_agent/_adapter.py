"""Our engines inside Hermes Agent: an engine of Hermes' kind that runs ours on a ContextHost.

Hermes Agent accepts a context engine from a plugin only if it is an
instance of its own base class, and gives each agent a ``copy.deepcopy`` of
it. :func:`hermes_engine` builds the adapter for the engine ``context.engine``
names in Hermes' ``config.yaml`` (the same file hermes-context reads):

* every hook Hermes calls goes to a :class:`~hermes_core.ContextHost` (so our
  engine gets copies, bounded calls, checked results: a failing engine
  leaves Hermes where its own compressor would). Which hooks that is, is read
  from the installed Hermes: every hook of our contract that its base class
  has is forwarded (a Hermes that skips a hook left at its base class's
  default, as 0.20 and later do for ``select_context`` and
  ``on_turn_complete``, then calls ours), whatever its version;
* the counters Hermes reads and writes (``last_prompt_tokens``,
  ``threshold_tokens``, ``protect_last_n``, ...) live on our engine;
* ``__deepcopy__`` and ``clone_for_agent`` make a new adapter over the same
  registry, whose host creates a fresh engine on first use: nothing that
  holds a connection is ever copied;
* our engines get Hermes' auxiliary LLM as ``llm``
  (:class:`~hermes_core.hermes_agent._llm.HermesAuxiliaryLLM`).

This module imports Hermes Agent's base class on first use only.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from hermes_core._discovery import discover
from hermes_core._log import logger
from hermes_core.config import load_config
from hermes_core.hooks._record import Hook
from hermes_core.hooks._specs import HOOKS
from hermes_core.hooks._types import Message, Messages, ToolSchema
from hermes_core.host import ContextHost
from hermes_core.registry import EngineRegistry
from hermes_core.sources.hermes_plugins._attributes import ENGINE_ATTRIBUTES, forwarding
from hermes_core.sources.hermes_plugins._forwarding import add_forwarding

__all__ = ["adapter_class", "hermes_engine"]

_classes: dict[type, type] = {}
_classes_lock = threading.Lock()


class _Hosted:
    """The behaviour of the adapter; :func:`adapter_class` mixes it into Hermes' base class."""

    def __init__(self, registry: EngineRegistry, env: Mapping[str, str]) -> None:
        self._registry = registry
        self._env = dict(env)
        self._host: ContextHost | None = None
        self._host_lock = threading.Lock()

    @property
    def host(self) -> ContextHost:
        """The host of this agent's engine, created on first use."""
        if self._host is None:
            with self._host_lock:
                if self._host is None:
                    # Hermes leaves room for the reply itself and checks the engine's
                    # context_length against its minimum: the engine sees the whole window
                    self._host = ContextHost(self._registry, env=self._env, whole_window=True)
        return self._host

    def __deepcopy__(self, memo: dict[int, Any]) -> Any:
        return type(self)(self._registry, self._env)

    def clone_for_agent(self) -> Any:
        """A new adapter over the same registry (Hermes 0.22 asks one per agent): its host
        builds an engine of its own on first use, sharing no connection with this one."""
        return type(self)(self._registry, self._env)

    @property
    def emit_automatic_compaction_status(self) -> bool:
        """Our engine's choice (Hermes 0.22 reads it before asking for a status line)."""
        return bool(getattr(self.host.engine, "emit_automatic_compaction_status", True))

    @property
    def name(self) -> str:
        if self._host is not None:
            return self._host.engine_name
        return self._registry.config.engine.name

    def update_from_response(self, usage: dict[str, Any]) -> None:
        self.host.record_usage(usage)

    def should_compress(self, prompt_tokens: int | None = None) -> bool:
        return self.host.should_compress(prompt_tokens)

    def compress(
        self,
        messages: Messages,
        current_tokens: int | None = None,
        focus_topic: str | None = None,
        force: bool = False,
        memory_context: str = "",
    ) -> Messages:
        return self.host.compress(messages, current_tokens, focus_topic, force, memory_context)

    def should_compress_preflight(self, messages: Messages) -> bool:
        return self.host.should_compress_preflight(messages)

    def should_defer_preflight_to_real_usage(self, rough_tokens: int) -> bool:
        return self.host.should_defer_preflight_to_real_usage(rough_tokens)

    def has_content_to_compress(self, messages: Messages) -> bool:
        return self.host.has_content_to_compress(messages)

    def on_session_start(self, session_id: str, **kwargs: Any) -> None:
        self.host.start_session(session_id, **kwargs)

    def on_session_end(self, session_id: str, messages: Messages) -> None:
        self.host.end_session(session_id, messages)

    def on_session_reset(self) -> None:
        self.host.reset_session()

    def select_context(
        self,
        request_messages: Messages,
        *,
        conversation_messages: Messages | None = None,
        incoming_message: Message | None = None,
        budget_tokens: int = 0,
    ) -> Messages:
        # Hermes passes the model's whole window (or 0): a request never takes the reply's
        # room, so the budget is at most the host's input budget
        budget = self.host.input_budget_tokens
        if budget_tokens > 0:
            budget = min(budget_tokens, budget) if budget else budget_tokens
        return self.host.select_context(
            request_messages, conversation_messages, incoming_message, budget
        )

    def get_tool_schemas(self) -> list[ToolSchema]:
        # Hermes Agent wraps bare function schemas itself
        return [entry["function"] for entry in self.host.tool_schemas()]

    def handle_tool_call(self, name: str, args: dict[str, Any], **kwargs: Any) -> str:
        return self.host.handle_tool_call(name, args, messages=kwargs.get("messages"))

    def get_status(self) -> dict[str, Any]:
        return self.host.status()

    def update_model(
        self,
        model: str,
        context_length: int,
        base_url: str = "",
        api_key: str = "",
        provider: str = "",
        api_mode: str = "",
    ) -> None:
        self.host.update_model(model, context_length, base_url, api_key, provider, api_mode)


def _to_host(hook: Hook) -> Callable[..., Any]:
    def forward(self: _Hosted, *args: Any, **kwargs: Any) -> Any:
        return getattr(self.host, hook.host_method)(*args, **kwargs)

    return forward


add_forwarding(_Hosted, _to_host)


def adapter_class() -> type:
    """The adapter class: :class:`_Hosted` over Hermes Agent's own ``ContextEngine``."""
    from agent.context_engine import ContextEngine as HermesContextEngine

    with _classes_lock:
        cls = _classes.get(HermesContextEngine)
        if cls is None:
            attributes: dict[str, Any] = {
                "__doc__": "One of hermes-context's engines, as a Hermes Agent context engine.",
                "__module__": __name__,
                "__abstractmethods__": frozenset(),
            }
            attributes.update(
                {
                    name: forwarding(name, lambda self: self.host.engine)
                    for name in ENGINE_ATTRIBUTES
                }
            )
            attributes.update(_hooks_of(HermesContextEngine))
            cls = type("HermesContextAdapter", (_Hosted, HermesContextEngine), attributes)
            _classes[HermesContextEngine] = cls
    return cls


def _hooks_of(base: type) -> dict[str, Callable[..., Any]]:
    """A forwarder to the host for each hook of our contract that the installed Hermes base
    class has and :class:`_Hosted` does not spell out: found from the installed Hermes,
    not from a list written for one of its versions."""
    methods = {}
    for hook in HOOKS.values():
        if hasattr(base, hook.name) and not hasattr(_Hosted, hook.name):
            method = _to_host(hook)
            method.__name__ = method.__qualname__ = hook.name
            methods[hook.name] = method
    return methods


def hermes_engine(home: Path | None = None, env: Mapping[str, str] | None = None) -> Any | None:
    """The adapter for the engine ``context.engine`` selects in ``home``'s ``config.yaml``
    (default: Hermes Agent's home), or None when that is Hermes' own compressor or not an
    engine of ours (Hermes Agent then looks elsewhere, as it would without this plugin)."""
    from hermes_core.hermes_agent._llm import HermesAuxiliaryLLM

    if home is None:
        from hermes_cli.config import get_hermes_home  # Hermes Agent's, with its profiles

        home = Path(get_hermes_home())
    env = {**(os.environ if env is None else env), "HERMES_HOME": str(home)}
    path = home / "config.yaml"
    config = load_config(path if path.is_file() else {}, env=env)
    name = config.engine.name
    if name == "compressor":
        return None
    registry = discover(config, hermes_plugins=False)
    record = registry.get(name)
    if record is None or record.status.value not in ("available", "selected"):
        logger.warning(
            "hermes_agent.engine_unavailable",
            name=name,
            reason=record.reason if record is not None else "not installed",
            effect="Hermes Agent uses its own compressor",
        )
        return None
    registry.use_llm(HermesAuxiliaryLLM())
    return adapter_class()(registry, env)

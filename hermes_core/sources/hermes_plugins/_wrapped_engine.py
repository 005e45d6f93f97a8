"""A Hermes Agent context engine, run by hermes-context's host.

:class:`HermesPluginEngine` is a :class:`~hermes_core.ContextEngine` around an
engine a Hermes plugin registered (an instance of Hermes' base class, the real
one or :mod:`~hermes_core.sources.hermes_plugins._hermes_abc`). Each hook goes to the
engine as Hermes Agent would call it (``compress`` with only the keywords its
signature takes, ``handle_tool_call(..., messages=)``,
``on_session_reset()``), with ``call_llm`` and ``get_hermes_home`` bound to
this host's LLM and home on the calling thread. The counters Hermes engines
keep (``last_prompt_tokens``, ``threshold_tokens``, ...) are read and written
on the engine itself.

The hooks Hermes Agent 0.22 added (``select_context``, ``on_turn_complete``,
``prune_tool_results_only``, ...) are forwarded only when the engine overrides
its Hermes base class's default, as Hermes 0.22 checks: an engine written for
0.19 lacks them and keeps our base class's defaults, so the host never calls
what is not there.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hermes_core._engine import ContextEngine
from hermes_core.hooks._record import Hook
from hermes_core.hooks._signatures import accepted_keywords
from hermes_core.hooks._types import Messages, ToolSchema
from hermes_core.llm import LLM
from hermes_core.sources.hermes_plugins import _shims as shims
from hermes_core.sources.hermes_plugins._attributes import ENGINE_ATTRIBUTES, forwarding
from hermes_core.sources.hermes_plugins._forwarding import HERMES_BASE_HOOKS, add_forwarding
from hermes_core.sources.hermes_plugins._hermes_abc import HermesContextEngine

__all__ = ["HermesPluginEngine"]


class HermesPluginEngine(ContextEngine):
    """``inner``, a Hermes plugin's engine, as a hermes-context engine."""

    #: Told the model's whole window, as Hermes Agent tells it (a plugin built on Hermes'
    #: compressor then computes the threshold it computes inside Hermes); the host's reply
    #: reserve shrinks only select_context's budget.
    hermes_window = True

    def __init__(
        self,
        inner: Any,
        *,
        llm: LLM | None = None,
        hermes_home: Path | None = None,
        name: str | None = None,
    ) -> None:
        self._inner = inner
        #: The name it is selected by, when not the engine's own (an engine folder's name).
        self._name = name
        self._llm = llm
        self._home = hermes_home
        shims.bind_owner(self, llm, hermes_home)  # for threads the plugin starts itself
        for hook in LATER_HOOKS:
            if _overrides_hermes_default(inner, hook.name):
                setattr(self, hook.name, _to_inner_by_signature(self, hook.name))

    @property
    def emit_automatic_compaction_status(self) -> bool:  # type: ignore[override]
        """The engine's own choice; True for an engine written before Hermes 0.22."""
        return bool(getattr(self._inner, "emit_automatic_compaction_status", True))

    def clone_for_agent(self) -> HermesPluginEngine:
        """A wrapper around the engine's ``clone_for_agent()`` (a deep copy for an engine
        written before Hermes 0.22, as Hermes 0.19 made)."""
        clone = getattr(self._inner, "clone_for_agent", None)
        inner = self._call("clone_for_agent") if callable(clone) else copy.deepcopy(self._inner)
        return HermesPluginEngine(inner, llm=self._llm, hermes_home=self._home, name=self._name)

    def _call(self, method: str, *args: Any, **kwargs: Any) -> Any:
        with shims.bound(self._llm, self._home):
            return getattr(self._inner, method)(*args, **kwargs)

    @property
    def inner(self) -> Any:
        """The Hermes engine this wraps."""
        return self._inner

    @property
    def name(self) -> str:
        return self._name if self._name is not None else str(self._inner.name)

    def update_from_response(self, usage: dict[str, Any]) -> None:
        self._call("update_from_response", usage)

    def should_compress(self, prompt_tokens: int | None = None) -> bool:
        return bool(self._call("should_compress", prompt_tokens))

    def compress(
        self,
        messages: Messages,
        current_tokens: int | None = None,
        focus_topic: str | None = None,
        force: bool = False,
        memory_context: str = "",
    ) -> Messages:
        offered = {
            "current_tokens": current_tokens,
            "focus_topic": focus_topic,
            "force": force,
            "memory_context": memory_context,
        }
        keywords = accepted_keywords(self._inner.compress, offered)
        result: Messages = self._call("compress", messages, **keywords)
        return result

    def should_compress_preflight(self, messages: Messages) -> bool:
        return bool(self._call("should_compress_preflight", messages))

    def should_defer_preflight_to_real_usage(self, rough_tokens: int) -> bool:
        return bool(self._call("should_defer_preflight_to_real_usage", rough_tokens))

    def has_content_to_compress(self, messages: Messages) -> bool:
        return bool(self._call("has_content_to_compress", messages))

    def on_session_start(self, session_id: str, **kwargs: Any) -> None:
        self._call("on_session_start", session_id, **kwargs)

    def on_session_end(self, session_id: str, messages: Messages) -> None:
        self._call("on_session_end", session_id, messages)

    def on_session_reset(self, session_id: str | None = None) -> None:
        self._call("on_session_reset")

    def close(self) -> None:
        shims.release_owner(self)
        if callable(getattr(self._inner, "close", None)):
            self._call("close")

    def update_model(
        self,
        model: str,
        context_length: int,
        base_url: str = "",
        api_key: str = "",
        provider: str = "",
        api_mode: str = "",
    ) -> None:
        self._call(
            "update_model",
            model,
            context_length,
            base_url=base_url,
            api_key=api_key,
            provider=provider,
            api_mode=api_mode,
        )

    def get_tool_schemas(self) -> list[ToolSchema]:
        schemas: list[ToolSchema] = self._call("get_tool_schemas")
        return schemas

    def handle_tool_call(
        self,
        name: str,
        args: dict[str, Any],
        messages: Messages | None = None,
        **kwargs: Any,
    ) -> str:
        answer: str = self._call("handle_tool_call", name, args, messages=messages)
        return answer

    def get_status(self) -> dict[str, Any]:
        status: dict[str, Any] = self._call("get_status")
        return status


def _overrides_hermes_default(inner: Any, name: str) -> bool:
    """Whether ``inner``'s class defines ``name`` below Hermes' base class (the real one or
    our stand-in): what Hermes Agent 0.22 checks before calling such a hook."""
    for klass in type(inner).__mro__:
        if name in vars(klass):
            hermes_base = (
                klass.__name__ == "ContextEngine" and klass.__module__ == "agent.context_engine"
            )
            return not (hermes_base or klass is HermesContextEngine or klass is object)
    return False


def _to_inner_by_signature(engine: HermesPluginEngine, name: str) -> Callable[..., Any]:
    """``engine``'s inner ``name``, called with only the keywords it accepts (the host
    offers ``session_id``, which Hermes' hooks do not take)."""
    method = getattr(engine.inner, name)

    def forward(*args: Any, **kwargs: Any) -> Any:
        return engine._call(name, *args, **accepted_keywords(method, kwargs))

    forward.__name__ = forward.__qualname__ = name
    return forward


def _to_inner(hook: Hook) -> Callable[..., Any]:
    def forward(self: HermesPluginEngine, *args: Any, **kwargs: Any) -> Any:
        return self._call(hook.name, *args, **kwargs)

    return forward


#: The hooks of Hermes' base class since 0.20 that this class does not spell out: each is
#: forwarded per engine, when the engine overrides Hermes' default.
LATER_HOOKS = tuple(
    h
    for h in HERMES_BASE_HOOKS
    if h.hermes_since != "0.19" and h.name not in vars(HermesPluginEngine)
)
add_forwarding(HermesPluginEngine, _to_inner, since="0.19")
for _attribute in ENGINE_ATTRIBUTES:
    setattr(HermesPluginEngine, _attribute, forwarding(_attribute, lambda self: self.inner))

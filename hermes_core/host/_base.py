"""``HostBase``: what every host holds, set up once, and the calls around a conversation.

A host holds the selected engine, its calls (:mod:`._engine_calls`: bounds and
failure reports), the configuration, the model's window and the reply's
reserve, and the current session. The calls that frame a conversation live
here: starting, ending and resetting sessions, the model's change, closing,
and the status. :class:`~hermes_core.ContextHost` adds the calls an agent
makes every turn, as httpx's ``Client`` adds requests to its ``BaseClient``.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any, TypeVar

import pluggy

from hermes_core._discovery import discover
from hermes_core._engine import ContextEngine
from hermes_core.config import HermesConfig, load_config
from hermes_core.hooks._signatures import accepted_keywords
from hermes_core.hooks._specs import ENGINE_HOOKS
from hermes_core.hooks._types import Messages
from hermes_core.host import _status
from hermes_core.host._backoff import PassBackoff
from hermes_core.host._compaction import Compaction
from hermes_core.host._counters import HostCounters
from hermes_core.host._engine_calls import EngineCalls
from hermes_core.host._engine_tools import EngineTools
from hermes_core.host._handed import HandedCopies
from hermes_core.host._model import tell_model
from hermes_core.host._pool import DaemonPool, host_pool
from hermes_core.host._preparation import Preparation
from hermes_core.host._selection import Selection
from hermes_core.host._tracing import trace_enabled, traced
from hermes_core.messages import copy_messages
from hermes_core.registry import Activation, EngineRegistry, activate

__all__ = ["HostBase"]

_Host = TypeVar("_Host", bound="HostBase")


def _overrides(engine: ContextEngine, method: str) -> bool:
    """Whether ``engine`` replaces the ABC's default ``method`` (the class or the instance)."""
    return method in vars(engine) or getattr(type(engine), method) is not getattr(
        ContextEngine, method
    )


class HostBase:
    """What every host holds: the engine and its calls, the configuration, the model's
    window, the session, and the lifecycle and status of both (see :class:`ContextHost`)."""

    def __init__(
        self,
        registry: EngineRegistry,
        *,
        activation: Activation | None = None,
        pool: DaemonPool | None = None,
        env: Mapping[str, str] | None = None,
        whole_window: bool = False,
    ) -> None:
        self.registry = registry
        self.config: HermesConfig = registry.config
        self.activation = activation if activation is not None else activate(registry)
        self.engine: ContextEngine = self.activation.engine
        self.engine_name: str = self.activation.record.name
        self.session_id: str | None = None
        self.counters = HostCounters()
        self._plugins: pluggy.PluginManager = registry.plugin_manager
        self._pool = pool if pool is not None else host_pool()
        self._model_configured = False
        #: The arguments of the last update_model, for a sub-agent's host.
        self._model_call: tuple[str, int, str, str, str, str] | None = None
        self._session_context: dict[str, Any] = {"hermes_home": str(self.config.home)}
        self._closed = False
        #: The model's whole window (0 until update_model); the reply's reserve comes off it.
        self.context_window = 0
        self._reserve_setting: int | None = self.config.value("context.reply_reserve_tokens")
        #: Whether the engine is told the whole window rather than the input budget: inside
        #: Hermes Agent (which leaves room for its reply itself), and for a Hermes plugin's
        #: engine, whose thresholds are Hermes' shares of the whole window.
        self.whole_window = whole_window or bool(getattr(self.engine, "hermes_window", False))

        env = os.environ if env is None else env
        self._env = env
        self.context_timeout_seconds: float = float(
            self.config.value("compression.context_timeout_seconds")
        )
        #: Seconds any other bounded engine call may take (0: inline, unbounded).
        self.hook_timeout_seconds: float = float(
            self.config.value("compression.hook_timeout_seconds")
        )
        engine = self.engine
        methods = {name: getattr(engine, name) for name in ENGINE_HOOKS}
        if trace_enabled(env):
            methods = {name: traced(self.engine_name, name, m) for name, m in methods.items()}
            self._plugins.enable_tracing()
        self._methods = methods
        self._calls = calls = EngineCalls(
            engine, self.engine_name, methods, self.counters, self._pool, self.hook_timeout_seconds
        )
        self._bounded = calls.bounded
        self._failed = calls.failed
        # Bound once, so the hot paths pay one attribute load and one call.
        self._update_from_response = methods["update_from_response"]
        self._should_compress = methods["should_compress"]
        #: Copies of the conversation handed to the engine, made once per message object.
        self._handed = HandedCopies()
        # None for an engine that keeps the ABC's default: it is never called.
        self._selection: Selection | None = None
        if _overrides(engine, "select_context"):
            takes_session = "session_id" in accepted_keywords(
                engine.select_context, {"session_id": None}
            )
            self._selection = Selection(
                methods["select_context"], takes_session=takes_session, handed=self._handed
            )
        self._on_turn_complete = (
            methods["on_turn_complete"] if _overrides(engine, "on_turn_complete") else None
        )
        self._prune = (
            methods["prune_tool_results_only"]
            if _overrides(engine, "prune_tool_results_only")
            else None
        )
        backoff = PassBackoff(
            float(self.config.value("compression.min_freed_share")),
            int(self.config.value("compression.min_turns_between_passes")),
        )
        self._backoff = backoff
        self._preparation = Preparation(
            calls,
            methods["prepare_compress"] if _overrides(engine, "prepare_compress") else None,
            self._handed,
            self._pool,
            float(self.config.value("compression.prepare_at_share")),
            self.context_timeout_seconds,
        )
        self._compaction = Compaction(
            calls, self._plugins, self._pool, backoff, self._preparation.passed
        )
        self._tools = EngineTools(calls, self._handed)

    @classmethod
    def from_config(
        cls: type[_Host],
        source: str | os.PathLike[str] | Mapping[str, Any] | None = None,
        *,
        env: Mapping[str, str] | None = None,
        llm: Any = None,
        **overrides: Any,
    ) -> _Host:
        """Load the configuration, discover engines and activate the selected one.

        ``source`` is a ``config.yaml`` path, a mapping, or None for the
        default location (see :func:`~hermes_core.load_config`). ``llm``, when
        not None, is the auxiliary LLM client engines receive instead of the
        configured one (see :meth:`EngineRegistry.use_llm`). Keyword ``overrides`` are
        configuration sections merged over the loaded ones, e.g.
        ``context={"engine": "lcm"}``.
        """
        config = load_config(source, env=env, overrides=overrides)
        registry = discover(config)
        if llm is not None:
            registry.use_llm(llm)
        return cls(registry, env=env)

    def add_observer(self, plugin: object, name: str | None = None) -> None:
        """Register an observer: an object with ``hermes_context_*`` hook implementations."""
        self._plugins.register(plugin, name=name)

    # ------------------------------------------------------------------ lifecycle

    def _session(self, session_id: str | None) -> str | None:
        """The session a call concerns: ``session_id`` when given (any string, ``""``
        included, is an id of its own), else the current one (None before any)."""
        if session_id is None:
            return self.session_id
        if not isinstance(session_id, str):
            raise TypeError(f"session_id must be a string or None, not {type(session_id).__name__}")
        return session_id

    def start_session(self, session_id: str, **kwargs: Any) -> None:
        """A conversation begins: ``on_session_start`` with ``hermes_home``, model and ``kwargs``.

        Only the keywords the engine's method accepts are passed.
        """
        self.session_id = self._session(session_id)
        offered = self._calls.keywords("on_session_start", {**self._session_context, **kwargs})
        self._bounded(
            "on_session_start", self._methods["on_session_start"], None, session_id, **offered
        )

    def end_session(self, session_id: str, messages: Messages) -> None:
        """A real boundary (exit, reset, gateway expiry): ``on_session_end`` with a copy."""
        end = self._methods["on_session_end"]
        self._bounded("on_session_end", lambda: end(session_id, copy_messages(messages)), None)
        self._compaction.forget(session_id)
        self._handed.forget(session_id)

    def reset_session(self, *, session_id: str | None = None) -> None:
        """``/new`` or ``/reset`` of ``session_id`` (default: the current session):
        ``on_session_reset``, with ``session_id`` when the engine accepts it."""
        self._backoff.reset()
        offered = self._calls.keywords(
            "on_session_reset", {"session_id": self._session(session_id)}
        )
        self._bounded("on_session_reset", self._methods["on_session_reset"], None, **offered)

    def close(self) -> None:
        """Release what the engine holds (its ``close`` hook, e.g. LCM's database connections).

        Idempotent: the engine is closed once, however often this is called.
        The host must not be used afterwards. ``with ContextHost.from_config()
        as host:`` calls it at the end of the block.
        """
        if self._closed:
            return
        self._closed = True
        self._bounded("close", self._methods["close"], None)
        self._pool.shutdown()

    def __enter__(self: _Host) -> _Host:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    @property
    def reply_reserve_tokens(self) -> int:
        """Tokens of the window kept for the model's reply: ``context.reply_reserve_tokens``,
        else the smaller of 8192 and a quarter of the window."""
        if self._reserve_setting is not None:
            return min(int(self._reserve_setting), self.context_window)
        return min(8_192, self.context_window // 4)

    @property
    def input_budget_tokens(self) -> int:
        """What a request may hold: the window minus :attr:`reply_reserve_tokens`."""
        return max(0, self.context_window - self.reply_reserve_tokens)

    def update_model(
        self,
        model: str,
        context_length: int,
        base_url: str = "",
        api_key: str = "",
        provider: str = "",
        api_mode: str = "",
    ) -> None:
        """The model changed; ``context_length`` is its whole window.

        The engine is told the input budget as its context length: the window
        minus :attr:`reply_reserve_tokens`, so its thresholds leave the reply its
        room; with ``whole_window`` (inside Hermes Agent, or a Hermes plugin's
        engine) it is told the whole window, as Hermes tells it, and the reserve
        shrinks only :meth:`select_context`'s budget. Before the first call the
        host assigns ``model_thresholds``.
        """
        self.context_window = max(0, int(context_length))
        self._model_call = (model, self.context_window, base_url, api_key, provider, api_mode)
        told = self.context_window if self.whole_window else self.input_budget_tokens
        first, self._model_configured = not self._model_configured, True
        self._session_context.update(model=model, context_length=told)
        offered = {
            "base_url": base_url,
            "api_key": api_key,
            "provider": provider,
            "api_mode": api_mode,
        }
        thresholds = self.config.model_thresholds
        tell_model(self._calls, thresholds, first, model, told, offered)

    # ------------------------------------------------------------------ status

    def status(self) -> dict[str, Any]:
        """The engine's ``get_status()`` plus the host's figures.

        Host keys: ``engine``, ``engine_source``, ``requested_engine``,
        ``engine_fallback`` (the reason the default is used, or None), and the
        counters of :class:`~hermes_core.HostCounters`.
        """
        status = _status.engine_status(self._calls)
        fallback = self.activation.fallback
        status.update(
            context_window=self.context_window,
            reply_reserve_tokens=self.reply_reserve_tokens,
            input_budget_tokens=self.input_budget_tokens,
            engine=self.engine_name,
            engine_source=str(self.activation.record.source),
            requested_engine=self.activation.requested,
            engine_fallback=fallback.reason if fallback is not None else None,
            passes_backoff_responses_left=self._backoff.responses_left,
            preparations_running=self._preparation.running,
            **self.counters.as_dict(),
        )
        return status

    @property
    def hermes_home(self) -> Path:
        """``$HERMES_HOME`` as the configuration resolved it."""
        return self.config.home

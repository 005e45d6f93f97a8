"""``ContextHost``: the one object an agent integrator embeds and calls every turn.

It owns the selected engine and applies the host's rules, so that a failing
engine is never worse than no engine: every engine call is guarded, every
result is checked, and on any failure the agent gets what it would have had
without an engine. Hot-path methods call the engine's bound methods
directly (never through pluggy's hook loop).

The class is a facade: each method is the hook's contract (its docstring) and
one call into the module that does the work: :mod:`._engine_calls` (bounds and
failure reports), :mod:`._compaction` (passes and their backoff),
:mod:`._decisions`, :mod:`._selection`, :mod:`._turns`, :mod:`._engine_tools`,
:mod:`._status`, :mod:`._model` and :mod:`._subagents`. The table of which host
method calls which hook is in the docs (``docs/host.md``), generated from
:data:`hermes_core.HOOKS`.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import pluggy

from hermes_core.config import HermesConfig, load_config
from hermes_core.containment import reraise_user_interrupt
from hermes_core.discovery import discover
from hermes_core.engine import ContextEngine
from hermes_core.hooks._signatures import accepted_keywords
from hermes_core.hooks._specs import ENGINE_HOOKS, HOOKS
from hermes_core.hooks._types import Message, Messages, ToolSchema
from hermes_core.host import _decisions, _status
from hermes_core.host._backoff import PassBackoff
from hermes_core.host._compaction import Compaction
from hermes_core.host._counters import HostCounters
from hermes_core.host._engine_calls import EngineCalls
from hermes_core.host._engine_tools import EngineTools
from hermes_core.host._generic import add_generic_methods
from hermes_core.host._handed import HandedCopies
from hermes_core.host._model import tell_model
from hermes_core.host._pool import DaemonPool, host_pool
from hermes_core.host._selection import Selection, selected
from hermes_core.host._subagents import subagent_activation
from hermes_core.host._tracing import trace_enabled, traced
from hermes_core.host._turns import prune_tool_results, turn_complete
from hermes_core.host._usage import normalize_usage
from hermes_core.messages import copy_messages
from hermes_core.registry import Activation, EngineRegistry, activate

__all__ = ["ContextHost"]


def _overrides(engine: ContextEngine, method: str) -> bool:
    """Whether ``engine`` replaces the ABC's default ``method`` (the class or the instance)."""
    return method in vars(engine) or getattr(type(engine), method) is not getattr(
        ContextEngine, method
    )


class ContextHost:
    """The host facade over one context engine for one agent.

    Build it with :meth:`from_config`. Every method is fail-open: an engine
    that raises, hangs or returns garbage is logged, counted in
    :meth:`status`, and the agent gets the result it would have had with no
    engine. Nothing the engine does can change the caller's message lists.
    """

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
        self._compaction = Compaction(calls, self._plugins, self._pool, backoff)
        self._tools = EngineTools(calls, self._handed)

    @classmethod
    def from_config(
        cls,
        source: str | os.PathLike[str] | Mapping[str, Any] | None = None,
        *,
        env: Mapping[str, str] | None = None,
        llm: Any = None,
        **overrides: Any,
    ) -> ContextHost:
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

    def __enter__(self) -> ContextHost:
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

    # ------------------------------------------------------------------ per response

    # record_usage and should_compress run on every response: a try block costs nothing
    # when nothing is raised, where a contained call would add a closure and a call
    # (bench_host holds them to 2x a direct call), so they stay written out here.

    def record_usage(self, usage: Mapping[str, Any] | None) -> None:
        """After every provider response: ``update_from_response`` with normalised usage."""
        self._backoff.response()
        try:
            self._update_from_response(normalize_usage(usage))
        except BaseException as exc:
            reraise_user_interrupt(exc)
            self._failed("update_from_response", exc)

    def should_compress(self, prompt_tokens: int | None = None) -> bool:
        """Whether a pass should run now; False when the engine fails or answers a non-bool,
        and while passes are backed off (:mod:`~hermes_core.host._backoff`) below the window."""
        try:
            result = self._should_compress(prompt_tokens)
        except BaseException as exc:
            reraise_user_interrupt(exc)
            self._failed("should_compress", exc)
            return False
        if result is True:
            return not self._held(prompt_tokens)
        if result is False:
            return False
        self._calls.bad_result("should_compress", result)
        return False

    def _held(self, prompt_tokens: int | None) -> bool:
        return self._compaction.held(prompt_tokens, self.context_window, self.input_budget_tokens)

    def should_compress_info(self, prompt_tokens: int | None = None) -> tuple[bool, str | None]:
        """``(decision, reason)``; ``(False, "engine_error")`` when the engine fails."""
        return _decisions.should_compress_info(self._calls, self._held, prompt_tokens)

    def should_compress_preflight(self, messages: Messages) -> bool:
        """Below the threshold, may ask for exactly one pass; False on failure."""
        return _decisions.should_compress_preflight(self._calls, self._held, messages)

    def should_defer_preflight_to_real_usage(self, rough_tokens: int) -> bool:
        """Whether the preflight should trust the last real usage over ``rough_tokens``
        (inline, like ``should_compress``); False on failure."""
        return _decisions.should_defer_preflight_to_real_usage(self._calls, rough_tokens)

    def has_content_to_compress(self, messages: Messages) -> bool:
        """Whether a pass could free anything (a manual ``/compress`` asks first).

        Bounded like every call that may do work; True (attempt) on failure, as
        Hermes Agent's default is.
        """
        return _decisions.has_content_to_compress(self._calls, messages)

    # ------------------------------------------------------------------ compression

    def compress(
        self,
        messages: Messages,
        current_tokens: int | None = None,
        focus_topic: str | None = None,
        force: bool = False,
        memory_context: str = "",
        *,
        session_id: str | None = None,
    ) -> Messages:
        """Run one compression pass and return the messages to continue with.

        The engine gets a private deep copy; keywords reach it only when its
        ``compress`` accepts them, among them ``session_id`` and ``deadline``
        (the ``time.monotonic()`` value at which the host stops waiting: an
        engine that commits durable state must not commit after it). With
        ``compression.context_timeout_seconds > 0`` (default 120) the pass
        runs on the host's daemon pool; on timeout ``messages`` is returned
        unchanged (``context_engine.compress_timeout``)
        and the late result is dropped. One pass per session
        (``session_id``, default: the current session) at a time. An
        exception, a timeout, or a result that is not a valid message
        sequence returns ``messages`` itself, logged and counted.
        """
        # None before any start_session: the engine's own current session, which no string
        # id names (a session called "default" is a session of its own)
        return self._compaction.run(
            messages,
            self._session(session_id),
            self.context_timeout_seconds,
            current_tokens=current_tokens,
            focus_topic=focus_topic,
            force=force,
            memory_context=memory_context,
        )

    def prune_tool_results(
        self,
        messages: Messages,
        current_tokens: int | None = None,
        *,
        session_id: str | None = None,
    ) -> tuple[Messages, int]:
        """Below the threshold, let the engine shrink old tool results without an LLM:
        ``(new messages, how many changed)``, or ``(messages, 0)`` with the very list
        passed in. Call it after each response, as Hermes Agent 0.22 does; the engine
        decides whether anything is worth it (``current_tokens``: the last real prompt
        size).

        An engine that keeps the base class's default is never called. The engine
        gets copies (made once per message object), bounded by
        ``compression.hook_timeout_seconds``; an accepted prune comes back as messages
        the caller owns. An exception, a late answer, or
        a result that is not a smaller valid message list leaves the messages as they
        were (logged with the problem, and counted as ``prune_fallbacks``).
        """
        if self._prune is None:
            return messages, 0
        return prune_tool_results(
            self._calls,
            self._prune,
            self._handed,
            messages,
            current_tokens,
            self._session(session_id),
        )

    def compaction_status_message(
        self, phase: str, default_message: str, **context: Any
    ) -> str | None:
        """The line to show the user as an automatic pass starts at ``phase``
        (``"preflight"``, ``"compress"``, ``"idle"``), or None to show nothing: the
        engine's ``get_automatic_compaction_status_message``, unless its
        ``emit_automatic_compaction_status`` is False.

        Inline (it only formats). An engine that raises or answers something other
        than text or None gets ``default_message`` shown; secrets in what it says
        are redacted.
        """
        return _status.compaction_status_message(self._calls, phase, default_message, context)

    def for_subagent(self) -> ContextHost:
        """A host for another agent (a sub-agent this one delegates to), over the
        engine's ``clone_for_agent()``: the same engine, its own state.

        Bounded by ``compression.hook_timeout_seconds``. A clone that fails, is late,
        is not an engine of the same name, or is this very engine is replaced by a
        new engine of the configured name (``context_engine.clone_failed``): the
        sub-agent never shares this agent's engine. The new host has its own pool
        and the same model; close it when the sub-agent is done.
        """
        activation = subagent_activation(self._calls, self.activation, self.registry)
        host = ContextHost(
            self.registry, activation=activation, env=self._env, whole_window=self.whole_window
        )
        if self._model_call is not None:
            host.update_model(*self._model_call)
        return host

    # ------------------------------------------------------------------ per request

    def select_context(
        self,
        request_messages: Messages,
        conversation_messages: Messages | None = None,
        incoming_message: Message | None = None,
        budget_tokens: int = 0,
        session_id: str | None = None,
    ) -> Messages:
        """The messages to send in this one provider request of ``session_id`` (default: the
        current session, the one of the last :meth:`start_session`).

        Call it before every request (again on retries), before cache control
        and sanitizers. An engine that does not override ``select_context``
        is never called: ``request_messages`` itself comes back, with no
        copies made. ``budget_tokens`` is what the request may hold: pass
        :attr:`input_budget_tokens` (the window minus the reply's reserve), or
        leave it 0 and the host passes that. Otherwise the engine gets copies of
        everything; the very
        list it was handed, given back as it was (same length, same first and
        last message), keeps the request, as ``None`` does (the plugin guide:
        "same object when nothing changed"); an
        exception, ``None``, ``[]``, a non-list, a list with non-dict items,
        or a list that is not a valid message sequence (an orphaned tool
        result would earn an HTTP 400) returns ``request_messages`` (a
        warning for all but ``None``). The
        parameters are not keyword-only so that CPython can specialise the
        call on this hot path; pass all but the first by keyword.
        """
        # A plain test of one attribute: 1.46x an identity function against a 1.5x target
        # (bench_host); the call it guards is made in _selection.selected.
        if self._selection is None:
            return request_messages
        return selected(
            self._calls,
            self._selection,
            request_messages,
            conversation_messages,
            incoming_message,
            budget_tokens or self.input_budget_tokens,
            self._session(session_id),
        )

    # ------------------------------------------------------------------ per turn

    def turn_complete(
        self,
        messages: Messages,
        usage: Mapping[str, Any] | None = None,
        *,
        session_id: str | None = None,
        **meta: Any,
    ) -> None:
        """After a finished turn of ``session_id`` (default: the current session) is
        persisted: ``on_turn_complete`` with a copy (best effort).

        The seed promises a shallow copy; the host hands copies of the messages
        too, so an engine that edits what it was given can never reach the
        transcript. Each message object is copied once per session and handed
        as that copy again while it stands where it stood (see
        :mod:`hermes_core.host._handed`): the cost follows what is new.

        Skipped entirely for engines that do not override it; ``meta``
        (``turn_id``, ``task_id``, ``api_call_count``, ``interrupted``,
        ``failed``, ``turn_exit_reason``) is passed where accepted; exceptions
        are logged and swallowed.
        """
        if self._on_turn_complete is None:
            return
        session = self._session(session_id)
        turn_complete(
            self._calls, self._on_turn_complete, self._handed, messages, usage, session, meta
        )

    # ------------------------------------------------------------------ tools

    def tool_schemas(self, existing_tool_names: Iterable[str] = ()) -> list[ToolSchema]:
        """The engine's tools as ``{"type": "function", "function": schema}`` entries.

        Nameless schemas and names among ``existing_tool_names`` are skipped
        with a warning. An engine that fails here offers no tools.
        """
        return self._tools.schemas(existing_tool_names)

    def handle_tool_call(
        self,
        name: str,
        args: Any,
        messages: Messages | None = None,
        *,
        session_id: str | None = None,
    ) -> str:
        """Dispatch a call to one of the engine's tools for ``session_id`` (default: the
        current session); always returns JSON text. An engine that keeps data per
        session answers from that session only.

        Unknown names, non-object ``args``, exceptions (``{"error":
        "Context engine tool '<name>' failed: ..."}``) and non-text results
        come back as JSON errors.
        """
        return self._tools.handle(name, args, messages, self._session(session_id))

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
            **self.counters.as_dict(),
        )
        return status

    @property
    def hermes_home(self) -> Path:
        """``$HERMES_HOME`` as the configuration resolved it."""
        return self.config.home


# A hook declared with nothing special is called by a method written from its declaration.
add_generic_methods(ContextHost, HOOKS)

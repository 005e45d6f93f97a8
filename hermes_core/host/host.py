"""``ContextHost``: the one object an agent integrator embeds and calls every turn.

It owns the selected engine and applies the host's rules, so that a failing
engine is never worse than no engine: every engine call is guarded, every
result is checked, and on any failure the agent gets what it would have had
without an engine. Hot-path methods call the engine's bound methods
directly (never through pluggy's hook loop).
"""

from __future__ import annotations

import functools
import os
import time
import traceback
from collections.abc import Iterable, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

import pluggy

from hermes_core.config import HermesConfig, load_config
from hermes_core.containment import reraise_user_interrupt
from hermes_core.discovery import discover
from hermes_core.engine import ContextEngine
from hermes_core.hooks._signatures import accepted_keywords
from hermes_core.hooks._specs import ENGINE_HOOKS, HOOKS, HOST_OFFERED_KEYWORDS
from hermes_core.hooks._types import Message, Messages, ToolSchema
from hermes_core.host.backoff import PassBackoff
from hermes_core.host.bounded import BoundedCalls, contained
from hermes_core.host.counters import HostCounters
from hermes_core.host.generic import add_generic_methods
from hermes_core.host.handed import HandedCopies
from hermes_core.host.observers import notify
from hermes_core.host.passes import PassRunner
from hermes_core.host.pool import DaemonPool, host_pool
from hermes_core.host.pruning import checked_prune
from hermes_core.host.selection import Rejected, Selection
from hermes_core.host.subagents import clone_problem
from hermes_core.host.tools import dispatch_tool_call, tool_entries, tool_failure
from hermes_core.host.tracing import trace_enabled, traced
from hermes_core.host.usage import normalize_usage
from hermes_core.log import logger
from hermes_core.messages import copy_messages
from hermes_core.redaction import redact
from hermes_core.registry import Activation, EngineRegistry, activate

__all__ = ["ContextHost"]

#: The counter of each way a pass can leave the messages as they were.
_PASS_COUNTERS = {
    "error": "pass_failures",
    "timeout": "pass_timeouts",
    "invalid": "pass_invalid_results",
    "busy": "pass_busy",
    "pool_exhausted": "pass_pool_exhausted",
    "no_gain": "passes_no_gain",
}
_PASS_EVENTS = {
    "timeout": "context_engine.compress_timeout",
    "no_gain": "context_engine.no_gain",
}


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
        self._tool_names: frozenset[str] | None = None
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
        self._bounded = BoundedCalls(
            self._pool, self.hook_timeout_seconds, self._failed, self._hook_late
        )
        engine = self.engine
        methods = {name: getattr(engine, name) for name in ENGINE_HOOKS}
        if trace_enabled(env):
            methods = {name: traced(self.engine_name, name, m) for name, m in methods.items()}
            self._plugins.enable_tracing()
        self._methods = methods
        # Bound once, so the hot paths pay one attribute load and one call.
        self._update_from_response = methods["update_from_response"]
        self._should_compress = methods["should_compress"]
        # None for an engine that keeps the ABC's select_context: it is never called.
        #: Copies of the conversation handed to the engine, made once per message object.
        self._handed = HandedCopies()
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
        self._passes = PassRunner(methods["compress"], self._pool)
        self._backoff = PassBackoff(
            float(self.config.value("compression.min_freed_share")),
            int(self.config.value("compression.min_turns_between_passes")),
        )
        self._compress_offers = frozenset(
            accepted_keywords(engine.compress, dict.fromkeys(HOST_OFFERED_KEYWORDS["compress"]))
        )

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

    # ------------------------------------------------------------------ failures

    def _failed(self, method: str, exc: BaseException) -> None:
        self.counters.add("hook_failures")
        logger.warning(
            "context_engine.hook_failed",
            engine=self.engine_name,
            method=method,
            error=f"{type(exc).__name__}: {exc}",
        )
        self._traceback(method, exc)

    def _traceback(self, method: str, exc: BaseException) -> None:
        """For the engine's author (``--debug``): where it raised; redacted like every event.
        Formatted only when debug events are written (an engine may fail on every call)."""
        if not logger.debugging():
            return
        logger.debug(
            "context_engine.hook_traceback",
            engine=self.engine_name,
            method=method,
            message=f"{self.engine_name}.{method} raised:\n"
            + "".join(traceback.format_exception(exc)).rstrip(),
        )

    def _hook_late(self, method: str, limit: float) -> None:
        self.counters.add("hook_timeouts")
        logger.warning(
            "context_engine.hook_timeout",
            engine=self.engine_name,
            method=method,
            seconds=limit,
            effect="the agent got what it would have had without the engine",
        )

    def _bad_result(self, method: str, result: object, problem: str | None = None) -> None:
        self.counters.add("hook_failures")
        detail = {"problem": problem} if problem is not None else {}
        logger.warning(
            "context_engine.invalid_result",
            engine=self.engine_name,
            method=method,
            got=type(result).__name__,
            **detail,
        )

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
        offered = {**self._session_context, **kwargs}
        self._bounded(
            "on_session_start",
            self._methods["on_session_start"],
            None,
            session_id,
            **accepted_keywords(self.engine.on_session_start, offered),
        )

    def end_session(self, session_id: str, messages: Messages) -> None:
        """A real boundary (exit, reset, gateway expiry): ``on_session_end`` with a copy."""
        end = self._methods["on_session_end"]
        self._bounded("on_session_end", lambda: end(session_id, copy_messages(messages)), None)
        self._passes.forget(session_id)
        self._handed.forget(session_id)

    def reset_session(self, *, session_id: str | None = None) -> None:
        """``/new`` or ``/reset`` of ``session_id`` (default: the current session):
        ``on_session_reset``, with ``session_id`` when the engine accepts it."""
        offered = {"session_id": self._session(session_id)}
        self._backoff.reset()
        self._bounded(
            "on_session_reset",
            self._methods["on_session_reset"],
            None,
            **accepted_keywords(self.engine.on_session_reset, offered),
        )

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
        context_length = self.context_window if self.whole_window else self.input_budget_tokens
        if not self._model_configured:
            self._model_configured = True
            thresholds = self.config.model_thresholds
            # a property setter of the engine's is engine code
            contained(
                "model_thresholds",
                lambda: setattr(self.engine, "model_thresholds", thresholds),
                None,
                self._failed,
            )
        self._session_context.update(model=model, context_length=context_length)
        offered = {
            "base_url": base_url,
            "api_key": api_key,
            "provider": provider,
            "api_mode": api_mode,
        }
        self._bounded(
            "update_model",
            self._methods["update_model"],
            None,
            model,
            context_length,
            **accepted_keywords(self.engine.update_model, offered),
        )

    # ------------------------------------------------------------------ per response

    # record_usage and should_compress run on every response: a try block costs nothing
    # when nothing is raised, where contained() would add a closure and a call (bench_host
    # holds them to 2x a direct call).

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
        and while passes are backed off (:mod:`~hermes_core.host.backoff`) below the window."""
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
        self._bad_result("should_compress", result)
        return False

    def _held(self, prompt_tokens: int | None) -> bool:
        """Whether a pass the engine asks for is held by a backoff (see its rule at the
        window in :mod:`~hermes_core.host.backoff`)."""
        if not self._backoff.holding:
            return False
        tokens = prompt_tokens if prompt_tokens is not None else self.engine.last_prompt_tokens
        at_window = bool(self.context_window) and tokens >= self.input_budget_tokens
        if not self._backoff.holds(at_window):
            return False
        self.counters.add("passes_held")
        return True

    def should_compress_info(self, prompt_tokens: int | None = None) -> tuple[bool, str | None]:
        """``(decision, reason)``; ``(False, "engine_error")`` when the engine fails."""
        info = self._methods["should_compress_info"]
        result = contained(
            "should_compress_info", lambda: info(prompt_tokens), _FAILED, self._failed
        )
        if result is _FAILED:
            return False, "engine_error"
        if (
            isinstance(result, tuple)
            and len(result) == 2
            and isinstance(result[0], bool)
            and (result[1] is None or isinstance(result[1], str))
        ):
            if result[0] and self._held(prompt_tokens):
                return False, "backed_off"
            return result[0], result[1]
        self._bad_result("should_compress_info", result)
        return False, "engine_error"

    def should_compress_preflight(self, messages: Messages) -> bool:
        """Below the threshold, may ask for exactly one pass; False on failure."""
        preflight = self._methods["should_compress_preflight"]
        asked = contained(
            "should_compress_preflight",
            lambda: preflight(copy_messages(messages)),
            False,
            self._failed,
        )
        return asked is True and not self._held(None)

    def should_defer_preflight_to_real_usage(self, rough_tokens: int) -> bool:
        """Whether the preflight should trust the last real usage over ``rough_tokens``
        (inline, like ``should_compress``); False on failure."""
        defer = self._methods["should_defer_preflight_to_real_usage"]
        return (
            contained(
                "should_defer_preflight_to_real_usage",
                lambda: defer(rough_tokens),
                False,
                self._failed,
            )
            is True
        )

    def has_content_to_compress(self, messages: Messages) -> bool:
        """Whether a pass could free anything (a manual ``/compress`` asks first).

        Bounded like every call that may do work; True (attempt) on failure, as
        Hermes Agent's default is.
        """
        check = self._methods["has_content_to_compress"]
        result = self._bounded(
            "has_content_to_compress", lambda: check(copy_messages(messages)), True
        )
        return result is not False

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
        session = self._session(session_id)
        timeout = self.context_timeout_seconds
        offered = {
            "current_tokens": current_tokens,
            "focus_topic": focus_topic,
            "force": force,
            "memory_context": memory_context,
            "session_id": session,
            "deadline": time.monotonic() + timeout if timeout > 0 else None,
        }
        keywords = {k: v for k, v in offered.items() if k in self._compress_offers}
        self.counters.add("passes")
        outcome = self._passes.run(session, messages, keywords, timeout)
        before, after = outcome.before_tokens, outcome.after_tokens
        if outcome.outcome not in ("busy", "pool_exhausted"):  # those ran nothing
            self._judge(session, before, after)  # a failed pass (no sizes) freed nothing
        if outcome.outcome == "compressed":
            if outcome.repaired:
                logger.warning(
                    "context_engine.result_repaired",
                    engine=self.engine_name,
                    session_id=session,
                    dropped_messages=outcome.repaired,
                    problems=outcome.detail,
                )
            self.counters.add("passes_compressed")
            logger.info(
                "context_engine.compressed",
                engine=self.engine_name,
                session_id=session,
                before_tokens=before,
                after_tokens=after,
                messages_before=len(messages),
                messages_after=len(outcome.messages),
                seconds=round(outcome.seconds, 3),
            )
            notify(
                self._plugins,
                "hermes_context_compressed",
                session_id=session,
                before_tokens=before,
                after_tokens=after,
                engine_name=self.engine_name,
            )
            return outcome.messages
        self.counters.add(_PASS_COUNTERS[outcome.outcome])
        if outcome.error is not None:
            self._traceback("compress", outcome.error)
        sizes = {"before_tokens": before, "after_tokens": after} if before else {}
        logger.warning(
            _PASS_EVENTS.get(outcome.outcome, "context_engine.compress_failed"),
            engine=self.engine_name,
            session_id=session,
            reason=outcome.outcome,
            detail=outcome.detail,
            seconds=round(outcome.seconds, 3),
            **sizes,
        )
        notify(
            self._plugins,
            "hermes_context_pass_failed",
            session_id=session,
            engine_name=self.engine_name,
            reason=outcome.outcome,
        )
        return messages

    def _judge(self, session: str | None, before: int, after: int) -> None:
        """Back passes off when this one did not help (see :mod:`~hermes_core.host.backoff`)."""
        backed_off = self._backoff.judge(before, after)
        if backed_off is None:
            return
        reason, responses = backed_off
        self.counters.add("passes_backed_off")
        logger.warning(
            "context_engine.passes_backed_off",
            engine=self.engine_name,
            session_id=session,
            reason=reason,
            responses=responses,
            before_tokens=before,
            after_tokens=after,
            effect=f"should_compress says no for the next {responses} responses, below the window",
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
        prune = self._prune
        if prune is None:
            return messages, 0
        session = self._session(session_id)
        offered = {"current_tokens": current_tokens, "session_id": session}
        keywords = accepted_keywords(self.engine.prune_tool_results_only, offered)
        # asked after every response: the copies are made once per message, as for
        # turn_complete (see hermes_core.host.handed)
        handed = self._handed.copies((session, "prune"), messages)
        result = self._bounded("prune_tool_results_only", prune, _FAILED, handed, **keywords)
        if result is _FAILED:  # it raised or was late (logged and counted by _bounded)
            self.counters.add("prune_fallbacks")
            return messages, 0
        checked = checked_prune(result, handed)
        if isinstance(checked, str):
            self._bad_result("prune_tool_results_only", result, checked)
            self.counters.add("prune_fallbacks")
            return messages, 0
        if checked is None:  # nothing was worth pruning
            return messages, 0
        self.counters.add("prunes")
        logger.info(
            "context_engine.pruned",
            engine=self.engine_name,
            session_id=offered["session_id"],
            messages_pruned=checked.count,
            before_tokens=checked.before_tokens,
            after_tokens=checked.after_tokens,
        )
        # the host keeps its copies for the next call: the caller gets messages of its own
        # (an accepted prune is rare; asking is not)
        return copy_messages(checked.messages), checked.count

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
        engine = self.engine
        emit = contained(
            "emit_automatic_compaction_status",
            lambda: bool(getattr(engine, "emit_automatic_compaction_status", True)),
            True,
            self._failed,
        )
        if not emit:
            return None
        formatter = self._methods["get_automatic_compaction_status_message"]
        result = contained(
            "get_automatic_compaction_status_message",
            lambda: formatter(phase=phase, default_message=default_message, **context),
            _FAILED,
            self._failed,
        )
        if result is None:
            return None
        if result is _FAILED or not isinstance(result, str):
            if result is not _FAILED:
                self._bad_result("get_automatic_compaction_status_message", result)
            result = default_message
        return redact(result.strip()) or None

    def for_subagent(self) -> ContextHost:
        """A host for another agent (a sub-agent this one delegates to), over the
        engine's ``clone_for_agent()``: the same engine, its own state.

        Bounded by ``compression.hook_timeout_seconds``. A clone that fails, is late,
        is not an engine of the same name, or is this very engine is replaced by a
        new engine of the configured name (``context_engine.clone_failed``): the
        sub-agent never shares this agent's engine. The new host has its own pool
        and the same model; close it when the sub-agent is done.
        """
        clone = self._bounded("clone_for_agent", self._methods["clone_for_agent"], _FAILED)
        problem = clone_problem(clone, self.engine, self.engine_name)
        if problem is None:
            activation = replace(self.activation, engine=clone)
        else:
            logger.warning(
                "context_engine.clone_failed",
                engine=self.engine_name,
                problem=problem,
                effect="the sub-agent gets a new engine",
            )
            activation = activate(self.registry)
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
        # (bench_host); the call it guards is made in _selected.
        if self._selection is None:
            return request_messages
        return self._selected(
            request_messages,
            conversation_messages,
            incoming_message,
            budget_tokens or self.input_budget_tokens,
            session_id,
        )

    def _selected(
        self,
        request_messages: Messages,
        conversation_messages: Messages | None,
        incoming_message: Message | None,
        budget_tokens: int,
        session_id: str | None,
    ) -> Messages:
        """The engine's selection, bounded; ``request_messages`` on any failure."""
        selection = self._selection
        assert selection is not None
        session = self._session(session_id)
        result = self._bounded(
            "select_context",
            selection,
            _FAILED,
            request_messages,
            conversation_messages,
            incoming_message,
            budget_tokens,
            session,
        )
        if result is None:  # the engine chose not to select this time
            return request_messages
        if result is _FAILED:  # it raised or was late (logged and counted by _bounded)
            self.counters.add("select_context_fallbacks")
            return request_messages
        if result.__class__ is Rejected:
            self.counters.add("select_context_fallbacks")
            self._bad_result("select_context", result.value)
            return request_messages
        return result  # type: ignore[no-any-return]

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
        :mod:`hermes_core.host.handed`): the cost follows what is new.

        Skipped entirely for engines that do not override it; ``meta``
        (``turn_id``, ``task_id``, ``api_call_count``, ``interrupted``,
        ``failed``, ``turn_exit_reason``) is passed where accepted; exceptions
        are logged and swallowed.
        """
        observe = self._on_turn_complete
        if observe is None:
            return
        session = self._session(session_id)
        offered = {**meta, "usage": usage, "session_id": session}
        keywords = accepted_keywords(self.engine.on_turn_complete, offered)
        handed = self._handed

        def run() -> None:  # the copy is made where the bound applies, like the call
            if "usage" in keywords and usage is not None:
                keywords["usage"] = normalize_usage(usage)
            observe(handed.copies((session, "turn"), messages), **keywords)

        self._bounded("on_turn_complete", run, None)

    # ------------------------------------------------------------------ tools

    def tool_schemas(self, existing_tool_names: Iterable[str] = ()) -> list[ToolSchema]:
        """The engine's tools as ``{"type": "function", "function": schema}`` entries.

        Nameless schemas and names among ``existing_tool_names`` are skipped
        with a warning. An engine that fails here offers no tools.
        """
        schemas: list[ToolSchema] = self._bounded(
            "get_tool_schemas", self._methods["get_tool_schemas"], []
        )
        entries, names = tool_entries(schemas, existing_tool_names, self.engine_name)
        self._tool_names = names
        return entries

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
        if self._tool_names is None:
            self.tool_schemas()
        assert self._tool_names is not None
        session = self._session(session_id)
        offered: dict[str, Any] = {"session_id": session}
        if messages is not None:
            offered["messages"] = messages  # copied in _bounded_tool, where failures are caught
        extra = accepted_keywords(self.engine.handle_tool_call, offered)
        bounded = functools.partial(self._bounded_tool, session)
        return dispatch_tool_call(bounded, self._tool_names, name, args, extra)

    def _bounded_tool(self, session: str | None, name: str, args: Any, **extra: Any) -> Any:
        """The engine's tool call, bounded; a tool that raises answers with what it raised."""
        handle = self._methods["handle_tool_call"]
        handed = self._handed

        def run() -> Any:
            try:
                if "messages" in extra:
                    copies = handed.copies((session, "tool"), extra["messages"])
                    return handle(name, args, **{**extra, "messages": copies})
                return handle(name, args, **extra)
            except BaseException as exc:
                reraise_user_interrupt(exc)  # only ever true when run inline
                return tool_failure(name, exc)

        late = {"error": f"Context engine tool '{name}' did not answer in time"}
        return self._bounded("handle_tool_call", run, late)

    # ------------------------------------------------------------------ status

    def status(self) -> dict[str, Any]:
        """The engine's ``get_status()`` plus the host's figures.

        Host keys: ``engine``, ``engine_source``, ``requested_engine``,
        ``engine_fallback`` (the reason the default is used, or None), and the
        counters of :class:`~hermes_core.host.counters.HostCounters`.
        """
        get_status = self._methods["get_status"]

        def engine_status() -> dict[str, Any]:
            try:
                return dict(get_status())
            except BaseException as exc:
                reraise_user_interrupt(exc)  # only ever true when run inline
                self._failed("get_status", exc)
                return {"engine_status_error": f"{type(exc).__name__}: {exc}"}

        late = {"engine_status_error": "get_status did not answer in time"}
        status: dict[str, Any] = self._bounded("get_status", engine_status, late)
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


#: What a bounded select_context gives back when the engine raised or was late.
_FAILED: Any = object()


# A hook declared with nothing special is called by a method written from its declaration.
add_generic_methods(ContextHost, HOOKS)

"""``ContextHost``: the one object an agent integrator embeds and calls every turn.

It owns the selected engine and applies the host's rules, so that a failing
engine is never worse than no engine: every engine call is guarded, every
result is checked, and on any failure the agent gets what it would have had
without an engine. Hot-path methods call the engine's bound methods
directly (never through pluggy's hook loop).

The class is a facade: each method is the hook's contract (its docstring) and
one call into the module that does the work: :mod:`._compaction` (passes and
their backoff), :mod:`._decisions`, :mod:`._selection`, :mod:`._turns`,
:mod:`._engine_tools` and :mod:`._subagents`; what every host holds, and the
calls around a conversation, are :class:`~hermes_core.host._base.HostBase`'s.
The table of which host method calls which hook is generated into the docs
(``docs/host.md``) from :data:`hermes_core.HOOKS`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from hermes_core._containment import reraise_user_interrupt
from hermes_core.hooks._specs import HOOKS
from hermes_core.hooks._types import Message, Messages, ToolSchema
from hermes_core.host import _decisions, _status
from hermes_core.host._base import HostBase
from hermes_core.host._generic import add_generic_methods
from hermes_core.host._selection import selected
from hermes_core.host._subagents import subagent_activation
from hermes_core.host._turns import prune_tool_results, turn_complete
from hermes_core.host._usage import normalize_usage

__all__ = ["ContextHost"]


class ContextHost(HostBase):
    """The host facade over one context engine for one agent.

    Build it with :meth:`from_config`. Every method is fail-open: an engine
    that raises, hangs or returns garbage is logged, counted in
    :meth:`status`, and the agent gets the result it would have had with no
    engine. Nothing the engine does can change the caller's message lists.
    """

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
        # on the hot path: the window's figures are worked out only while a backoff holds
        if not self._backoff.holding:
            return False
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

    def prepare_compress(self, messages: Messages, *, session_id: str | None = None) -> bool:
        """Once the last prompt reached ``compression.prepare_at_share`` of the engine's
        threshold, start the engine's ``prepare_compress`` over a copy of ``messages`` in
        the background, and return at once: whether one started.

        :meth:`turn_complete` calls it; an agent that does not call that calls this
        after each turn. At most one runs per session; an engine that keeps the base
        class's default, or a share of 0, starts none. A preparation that raises is
        logged and counted (``preparation_failures``): the next pass summarises as it
        would have.
        """
        if not self._preparation.due():
            return False
        return self._preparation.start(messages, self._session(session_id))

    def wait_for_preparations(self, timeout: float | None = None) -> bool:
        """Block until no preparation of this host runs (at most ``timeout`` seconds);
        whether none does. For a replay or a test that must not depend on timing: an
        agent never needs to wait (a pass finds ready what has finished)."""
        return self._preparation.wait(timeout)

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

        First it starts preparing the next pass when one is due
        (:meth:`prepare_compress`). The engine's hook is skipped for engines that do
        not override it; ``meta``
        (``turn_id``, ``task_id``, ``api_call_count``, ``interrupted``,
        ``failed``, ``turn_exit_reason``) is passed where accepted; exceptions
        are logged and swallowed.
        """
        self.prepare_compress(messages, session_id=session_id)
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


# A hook declared with nothing special is called by a method written from its declaration.
add_generic_methods(ContextHost, HOOKS)

"""Hook specifications of the ``hermes`` pluggy project.

Two namespaces live here:

* :class:`ContextEngineSpec` mirrors :class:`~hermes_core.ContextEngine`, one
  hook per method, with the same names and argument names. Each is declared
  once, by :func:`~hermes_core.hooks.engine_hook`: its signature and
  docstring here, and beside them the host method that calls it, how that
  call is bounded, what the caller gets when the engine fails, how Hermes
  Agent 0.19 calls it and which Hermes release's base class has it first
  (:data:`HOOKS`). Adding a hook means adding its spec
  here and its default to :class:`~hermes_core.ContextEngine`.

  A parameter without a default is one the host always passes, by position
  (:data:`HOST_REQUIRED_ARGUMENTS`); a parameter with a default is passed by
  keyword, and only when the engine's method accepts it by name or through
  ``**kwargs`` (:data:`HOST_OFFERED_KEYWORDS`). So an engine written for the
  three-argument ``compress(messages, current_tokens, focus_topic)`` keeps
  working when the host learns to pass ``force``.

  Engine authors subclass the ABC and decorate nothing, so pluggy never sees
  an engine's methods: hermes-context checks them against these signatures
  itself (``registry.validation``), because pluggy's check, even when told to
  take every spec-named method as an implementation, accepts methods that
  cannot take what the host passes and costs four times as much
  (``benchmarks/bench_validation.py``). The host calls engine hooks as bound
  methods, one engine at a time, never through pluggy's hook loop, so the
  specs carry no ``firstresult``.

* :class:`PluginSpec` holds the hooks of *general plugins* (entry-point group
  ``hermes.plugins``), which may register engines and observe passes. These
  pluggy does validate: general plugins are registered with a plugin manager
  that knows the specs.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hermes_core.hooks._markers import hookspec
from hermes_core.hooks._record import BACKGROUND, BOUNDED, INLINE, PASS, Hook, engine_hook
from hermes_core.hooks._types import Message, Messages, ToolSchema, Usage

__all__ = [
    "ENGINE_HOOKS",
    "HOOKS",
    "HOST_OFFERED_KEYWORDS",
    "HOST_REQUIRED_ARGUMENTS",
    "ContextEngineSpec",
    "EngineRegistration",
    "PluginSpec",
]

#: A ``ContextEngine`` subclass, an engine instance, or a factory returning one.
EngineRegistration = Any


class ContextEngineSpec:
    """The context-engine interface as pluggy hookspecs (see the module docstring)."""

    @engine_hook(
        host="record_usage",
        call=INLINE,
        fallback="nothing (the failure is counted)",
        hermes="after every provider response",
        required=True,
    )
    def update_from_response(self, usage: dict[str, Any]) -> None:
        """After every provider response, with its usage (always: ``usage``).

        ``usage`` always carries ``prompt_tokens``, ``completion_tokens`` and
        ``total_tokens``. Update ``last_prompt_tokens``,
        ``last_completion_tokens`` and ``last_total_tokens`` from it.
        """

    @engine_hook(
        host="should_compress",
        call=INLINE,
        fallback="False: no pass",
        hermes="at turn start, after responses and tool calls",
        required=True,
        fallback_value=False,
    )
    def should_compress(self, prompt_tokens: int | None) -> bool:
        """At turn start (rough estimate) and after responses and tool calls (real usage).

        Return True when a compression pass should run (always:
        ``prompt_tokens``, which is None when the host has no estimate).
        """
        raise NotImplementedError

    @engine_hook(
        host="compress",
        call=PASS,
        fallback="the messages as they were",
        hermes="with only the keywords its signature accepts",
        required=True,
    )
    def compress(
        self,
        messages: Messages,
        current_tokens: int | None = None,
        focus_topic: str | None = None,
        force: bool = False,
        memory_context: str = "",
        session_id: str = "",
        deadline: float | None = None,
    ) -> Messages:
        """One compression pass (always: ``messages``).

        Return a valid OpenAI-format message list. ``messages`` is a private
        deep copy; the pass may run on a pooled thread under a host timeout, after
        which its result is discarded. ``force`` (a provider overflow error or
        a manual ``/compress``), ``memory_context``, ``session_id`` and
        ``deadline`` (``time.monotonic()`` value after which the host has given
        up: commit nothing durable after it) are passed only when the method
        accepts them.
        """
        raise NotImplementedError

    @engine_hook(
        host="prepare_compress",
        call=BACKGROUND,
        fallback="nothing: the next pass summarises as it would have",
    )
    def prepare_compress(
        self,
        messages: Messages,
        current_tokens: int | None = None,
        session_id: str = "",
        deadline: float | None = None,
    ) -> None:
        """The conversation nears the threshold: prepare what the next pass will need (its
        summaries) while the agent works (always: ``messages``, a private copy).

        Called on a thread of the host's pool and never waited for, at most once at a
        time per session, after a turn whose prompt reached
        ``compression.prepare_at_share`` of the threshold. What it prepares must be
        keyed by what it was made from: the next pass uses it only when the
        conversation still holds that, and otherwise summarises as it would have.
        It may run while a pass of the same session runs. Default: nothing.
        """
        raise NotImplementedError

    @engine_hook(
        host="should_compress_info",
        call=INLINE,
        fallback='``(False, "engine_error")``',
        hermes_since="0.22",
        fallback_value=(False, "engine_error"),
    )
    def should_compress_info(self, prompt_tokens: int | None) -> tuple[bool, str | None]:
        """Like ``should_compress`` with a reason when blocked.

        Return ``(decision, reason)``; reasons are ``"cooldown:<seconds>"`` and
        ``"ineffective"``. Default: ``(should_compress(prompt_tokens), None)``.
        """
        raise NotImplementedError

    @engine_hook(
        host="should_compress_preflight",
        call=INLINE,
        fallback="False",
        hermes_since="0.19",
        fallback_value=False,
    )
    def should_compress_preflight(self, messages: Messages) -> bool:
        """Before a provider call, below the threshold (always: ``messages``).

        True asks for exactly one pass. Default: False.
        """
        raise NotImplementedError

    @engine_hook(
        host="should_defer_preflight_to_real_usage",
        call=INLINE,
        fallback="False",
        hermes="before a provider call",
        fallback_value=False,
    )
    def should_defer_preflight_to_real_usage(self, rough_tokens: int) -> bool:
        """Before a provider call, with a rough estimate of the request (always:
        ``rough_tokens``): True makes the preflight trust the last real usage instead.
        Default: False. Hermes Agent calls it; on ``ContextHost`` it is an inline accessor.
        """
        raise NotImplementedError

    @engine_hook(
        host="has_content_to_compress",
        call=BOUNDED,
        fallback="True, so a pass is attempted (Hermes' default)",
        hermes="the gateway's ``/compress``",
        fallback_value=True,
    )
    def has_content_to_compress(self, messages: Messages) -> bool:
        """Whether a pass could free anything (always: ``messages``). Default: True."""
        raise NotImplementedError

    @engine_hook(
        host="start_session", call=BOUNDED, fallback="nothing", hermes="when a session begins"
    )
    def on_session_start(
        self,
        session_id: str,
        hermes_home: str = "",
        platform: str = "",
        model: str = "",
        context_length: int = 0,
        conversation_id: str = "",
        boundary_reason: str = "",
        old_session_id: str = "",
    ) -> None:
        """A conversation begins (always: ``session_id``). Default: no-op.

        The host adds ``hermes_home`` and, once known, ``model`` and
        ``context_length``; an integrator may pass ``platform``,
        ``conversation_id`` and, on a session rotation, ``boundary_reason``
        and ``old_session_id``. Accept ``**kwargs`` to receive them all.
        """

    @engine_hook(
        host="end_session",
        call=BOUNDED,
        fallback="nothing",
        hermes="at exit, reset and gateway expiry",
    )
    def on_session_end(self, session_id: str, messages: Messages) -> None:
        """A real boundary: exit, reset or gateway expiry (always: both). Default: no-op."""

    @engine_hook(
        host="reset_session",
        call=BOUNDED,
        fallback="nothing",
        hermes="``/new`` and ``/reset``, with no argument",
    )
    def on_session_reset(self, session_id: str | None = None) -> None:
        """``/new`` or ``/reset``. Default: zero the token counters and ``compression_count``.

        ``session_id`` (the session being reset) is passed by keyword when accepted.
        """

    @engine_hook(host="close", call=BOUNDED, fallback="nothing")
    def close(self) -> None:
        """The host is done with this engine (``ContextHost.close()``, or the end of a
        ``with`` block): release connections, files and threads. Called at most once,
        after every other call. Default: no-op.
        """

    @engine_hook(
        host="update_model",
        call=BOUNDED,
        fallback="nothing",
        hermes="start-up, model switch and fallback model",
    )
    def update_model(
        self,
        model: str,
        context_length: int,
        base_url: str = "",
        api_key: str = "",
        provider: str = "",
        api_mode: str = "",
    ) -> None:
        """Start-up, model switch or fallback model (always: ``model``, ``context_length``).

        Default: set ``context_length``, resolve ``model_thresholds`` and set
        ``threshold_tokens``.
        """

    @engine_hook(
        host="tool_schemas",
        call=BOUNDED,
        fallback="no tools",
        hermes="as bare function schemas",
        fallback_value=[],
    )
    def get_tool_schemas(self) -> list[ToolSchema]:
        """The tools this engine offers the model, as JSON-schema function descriptions.

        Nameless schemas and names that clash with the host's tools are
        skipped. Default: ``[]``.
        """
        raise NotImplementedError

    @engine_hook(
        host="handle_tool_call",
        call=BOUNDED,
        fallback="a JSON error naming the tool",
        hermes="with ``messages=``",
    )
    def handle_tool_call(
        self,
        name: str,
        args: dict[str, Any],
        messages: list[Any] | None = None,
        session_id: str | None = None,
    ) -> str:
        """Run one of this engine's tools (always: ``name``, ``args``); return JSON text.

        ``messages`` (the conversation) and ``session_id`` are passed by
        keyword when accepted. An
        exception becomes ``{"error": "Context engine tool '<name>' failed: ..."}``.
        """
        raise NotImplementedError

    @engine_hook(
        host="status", call=BOUNDED, fallback="the host's own figures", hermes="for display"
    )
    def get_status(self) -> dict[str, Any]:
        """Figures for display.

        At least ``last_prompt_tokens``, ``threshold_tokens``,
        ``context_length``, ``usage_percent`` and ``compression_count``.
        """
        raise NotImplementedError

    @engine_hook(
        host="select_context",
        call=BOUNDED,
        fallback="the original request",
        hermes_since="0.22",
    )
    def select_context(
        self,
        request_messages: Messages,
        conversation_messages: Messages | None = None,
        incoming_message: Message | None = None,
        budget_tokens: int = 0,
        session_id: str | None = None,
    ) -> Messages | None:
        """Before every provider request (always: ``request_messages``; the rest by keyword).

        Return a replacement list for this one call, or None. ``session_id``
        (the host's current session) is passed when accepted. Copies only;
        exceptions and invalid results fall back to the original request.
        Engines that do not override it are never called.
        """
        raise NotImplementedError

    @engine_hook(host="turn_complete", call=BOUNDED, fallback="nothing", hermes_since="0.22")
    def on_turn_complete(
        self,
        messages: Messages,
        usage: Usage | None = None,
        turn_id: str = "",
        task_id: str = "",
        api_call_count: int = 0,
        interrupted: bool = False,
        failed: bool = False,
        turn_exit_reason: str = "",
        session_id: str | None = None,
    ) -> None:
        """After a finished turn has been persisted (always: ``messages``).

        ``usage`` is None when no response arrived. Meta arguments are passed
        by keyword when accepted. Exceptions are logged and swallowed.
        """

    @engine_hook(
        host="prune_tool_results",
        call=BOUNDED,
        fallback="the messages as they were, and 0",
        hermes_since="0.22",
        fallback_value=None,
    )
    def prune_tool_results_only(
        self,
        messages: Messages,
        current_tokens: int | None = None,
        session_id: str | None = None,
    ) -> tuple[Messages, int]:
        """Below the compression threshold, shrink old tool results without an LLM
        (always: ``messages``).

        Return ``(messages, n_pruned)``: a new list and how many messages changed, or
        the very list handed in and 0 when nothing is worth pruning (the engine
        decides when: Hermes Agent's compressor waits for
        ``compression.proactive_prune_tokens``). ``current_tokens`` (the last real
        prompt size) and ``session_id`` are passed by keyword when accepted.
        Default: ``(messages, 0)``.
        """
        raise NotImplementedError

    @engine_hook(
        host="compaction_status_message",
        call=INLINE,
        fallback="the default message",
        hermes_since="0.22",
    )
    def get_automatic_compaction_status_message(
        self, *, phase: str, default_message: str, **context: Any
    ) -> str | None:
        """What to show the user when an automatic pass starts (always, by keyword:
        ``phase``, where the host is: ``"preflight"``, ``"compress"`` or ``"idle"``, and
        ``default_message``); ``context`` carries what the host knows, such as
        ``approx_tokens`` and ``threshold_tokens``. None shows nothing. Default:
        ``default_message``, or None when the engine's
        ``emit_automatic_compaction_status`` is False.
        """
        raise NotImplementedError

    @engine_hook(
        host="for_subagent",
        call=BOUNDED,
        fallback="a host over a new engine of the same name",
        hermes_since="0.22",
    )
    def clone_for_agent(self) -> Any:
        """An engine of its own for another agent (a sub-agent), sharing nothing that
        changes per agent. Hermes Agent 0.22 calls it on the engine a plugin
        registered, once per agent. Default: ``copy.deepcopy(self)``; an engine that
        holds connections, locks or threads overrides it to build a fresh engine over
        the same durable store.
        """
        raise NotImplementedError


#: Every engine hook's declaration, in the order the specs declare them.
HOOKS: dict[str, Hook] = {
    name: member.hermes_hook
    for name, member in vars(ContextEngineSpec).items()
    if isinstance(getattr(member, "hermes_hook", None), Hook)
}
#: The engine hooks, in the order the specs declare them.
ENGINE_HOOKS: tuple[str, ...] = tuple(HOOKS)
#: For each engine hook, the arguments the host always passes, in order (the
#: spec's parameters without a default). An engine method must accept them all.
HOST_REQUIRED_ARGUMENTS: dict[str, tuple[str, ...]] = {
    name: hook.arguments for name, hook in HOOKS.items()
}
#: For each engine hook, the keywords the host may pass (the spec's parameters
#: with a default), each only to an engine whose method accepts it.
HOST_OFFERED_KEYWORDS: dict[str, tuple[str, ...]] = {
    name: hook.keywords for name, hook in HOOKS.items()
}


class PluginSpec:
    """Hooks of general plugins (entry-point group ``hermes.plugins``).

    Besides registering engines, general plugins can observe compaction
    without owning it (analytics, memory providers): the host calls the
    ``hermes_context_*`` hooks of every loaded plugin and of every observer
    added with ``ContextHost.add_observer``. An observer that raises is
    logged as ``hermes_plugin.hook_failed`` and never disturbs the agent.
    """

    @hookspec
    def register_context_engines(self, register: Callable[[str, EngineRegistration], None]) -> None:
        """Register context engines by calling ``register(name, engine)``.

        ``engine`` is a ``ContextEngine`` subclass, a factory returning an
        engine, or an engine instance (each agent then gets a deep copy). A
        name already registered by an earlier source is rejected with a
        ``context_engine.duplicate_rejected`` warning; the first one stays.
        """

    @hookspec
    def hermes_context_compressed(
        self, session_id: str, before_tokens: int, after_tokens: int, engine_name: str
    ) -> None:
        """A compression pass replaced a session's messages.

        ``before_tokens`` and ``after_tokens`` are the host's estimates
        (characters / 4) of the message lists before and after the pass.
        """

    @hookspec
    def hermes_context_pass_failed(self, session_id: str, engine_name: str, reason: str) -> None:
        """A compression pass left the messages unchanged because the engine failed.

        ``reason`` is one of ``"error"`` (it raised), ``"timeout"``,
        ``"invalid"`` (it returned something that is not a valid message
        list), ``"busy"`` (a pass of the same session was still running),
        ``"pool_exhausted"`` (no pool thread was free: the pass never started) or
        ``"no_gain"`` (the result was not smaller than the input, so the input
        was kept).
        """

"""``ContextEngineMiddleware``: a context engine inside a LangChain v1 agent.

Where each hook of the engine runs in ``create_agent``'s loop:

- ``before_agent``: ``on_session_start`` the first time a thread is seen (the
  LangGraph ``thread_id``, or ``session_id`` when there is none).
- ``before_model``: ``should_compress`` with the last real usage; when it says
  so, ``compress``, and the agent's state is replaced by what it returns
  (the messages it kept are the same LangChain objects, ids and all).
- ``wrap_model_call``: ``select_context`` on the request (system message
  included), within the window less the reply's reserve.
- ``after_model``: ``record_usage`` with the model's real ``usage_metadata``;
  when the reply calls no tool, the turn is over: ``on_turn_complete``.

Every hook goes through :class:`~hermes_core.host.ContextHost`, so an engine
that raises or is late leaves the agent with what it would have had without
it. Async agents get the same hooks; the engine runs on a worker thread so the
event loop is never blocked by a compaction.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar, cast

from langchain.agents.middleware import AgentMiddleware, ModelRequest, ModelResponse
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, AnyMessage, RemoveMessage, SystemMessage
from langgraph.graph.message import REMOVE_ALL_MESSAGES

from hermes_core._log import logger
from hermes_core._tokens import estimate_tokens
from hermes_core.host import ContextHost
from hermes_core.integrations._due import pass_due
from hermes_core.integrations.langchain._messages import MessageMap, to_openai
from hermes_core.integrations.langchain._tools import engine_tools
from hermes_core.integrations.langchain._window import model_window

__all__ = ["ContextEngineMiddleware"]

_T = TypeVar("_T")


@dataclass
class _Thread:
    """What the middleware remembers of one conversation (one LangGraph thread)."""

    #: The id of the reply whose usage the last compaction acted on: that usage no longer
    #: describes the history, so the next check estimates instead.
    compacted_at: str | None = None
    #: Whether the engine's select_context rewrote the last request: then the model's
    #: usage measures the engine's request, not the agent's history.
    assembled: bool = False
    turns: int = 0


def _usage(message: AIMessage) -> dict[str, int] | None:
    """The reply's real usage in OpenAI's names, or None when the model reported none."""
    usage = message.usage_metadata
    if not usage:
        return None
    prompt, completion = int(usage.get("input_tokens", 0)), int(usage.get("output_tokens", 0))
    total = int(usage.get("total_tokens", prompt + completion))
    return {"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": total}


class ContextEngineMiddleware(AgentMiddleware):
    """Runs a hermes-context engine (``compressor``, ``lcm``, any installed one) in
    ``langchain.agents.create_agent(..., middleware=[ContextEngineMiddleware()])``.

    ``host`` is the :class:`~hermes_core.host.ContextHost` to use; without one,
    the middleware builds it with ``ContextHost.from_config(config)`` (``config``
    is a config.yaml path, a mapping, or None for ``$HERMES_HOME/config.yaml``)
    and closes it in :meth:`close`. ``context_length`` is the model's whole
    window; without it, the chat model's profile, then ``model.context_length``
    in the config, say it. ``session_id`` names the conversation when the agent
    runs without a LangGraph ``thread_id``. The engine's tools are offered to
    the agent (``tools``) unless ``offer_tools`` is False, and only to a chat model
    that can take tools: a model whose ``bind_tools`` is LangChain's default (which
    raises, as ``GenericFakeChatModel``'s and ``FakeListChatModel``'s do) gets the
    request without them, and ``langchain.engine_tools_not_offered`` says so once.
    """

    def __init__(
        self,
        host: ContextHost | None = None,
        *,
        config: Any = None,
        context_length: int | None = None,
        session_id: str = "langchain",
        offer_tools: bool = True,
    ) -> None:
        super().__init__()
        self._owns_host = host is None
        self.host: ContextHost = host if host is not None else ContextHost.from_config(config)
        self.context_length = context_length
        self.session_id = session_id
        self._lock = threading.Lock()
        self._threads: dict[str, _Thread] = {}
        self._model: tuple[str, int] | None = None
        self._seen: dict[str, list[dict[str, Any]]] = {}
        self.tools = engine_tools(self.host, self._conversation) if offer_tools else []
        self._told: set[type[Any]] = set()  # models said once to take no tools

    # ------------------------------------------------------------------ threads

    def _session(self) -> str:
        """The LangGraph thread this call runs in, or :attr:`session_id`."""
        try:
            from langgraph.config import get_config

            thread = get_config().get("configurable", {}).get("thread_id")
        except RuntimeError:  # called outside a graph run
            thread = None
        return str(thread) if thread is not None else self.session_id

    def _thread(self, session: str) -> _Thread:
        with self._lock:
            known = self._threads.get(session)
            if known is None:
                known = self._threads[session] = _Thread()
                self.host.start_session(session)
            return known

    def _conversation(self) -> list[dict[str, Any]]:
        """The messages of the current thread as the last model call saw them (tools)."""
        return list(self._seen.get(self._session(), []))

    def _use_model(self, model: Any) -> None:
        """Tell the host the model and its window, once, and again when either changes."""
        named = model_window(self.host, model, self.context_length)
        if named != self._model:
            self._model = named
            self.host.update_model(*named)

    # ------------------------------------------------------------------ hooks

    def before_agent(self, state: Any, runtime: Any) -> dict[str, Any] | None:
        """The thread's first run starts its session in the engine."""
        self._thread(self._session())
        return None

    def before_model(self, state: Any, runtime: Any) -> dict[str, Any] | None:
        """Compaction, when the engine asks for it: the state becomes what it returns."""
        messages: list[AnyMessage] = list(state["messages"])
        session = self._session()
        thread = self._thread(session)
        if self._model is None or not messages:
            return None  # no window known before the first call: nothing to compact yet
        tokens, reply = self._tokens(messages, thread)
        converted = MessageMap()
        plain: list[dict[str, Any]] = []

        def conversation() -> list[dict[str, Any]]:  # converted once, when first needed
            if not plain:
                plain.extend(converted.to_openai(messages))
            return plain

        if not pass_due(self.host, tokens, conversation):
            return None
        conversation()
        compacted = self.host.compress(plain, current_tokens=tokens, session_id=session)
        if compacted is plain:
            return None
        if not compacted or compacted[-1] != plain[-1]:
            # the model is about to answer the last message: without it, the agent would
            # redo the step it is in (and an engine doing so every time would never end)
            self.host.counters.add("hook_failures")
            logger.warning(
                "context_engine.compaction_dropped_current",
                engine=self.host.engine_name,
                effect="the agent kept its messages; compaction skipped this time",
            )
            return None
        thread.compacted_at = reply
        return {
            "messages": [RemoveMessage(id=REMOVE_ALL_MESSAGES), *converted.from_openai(compacted)]
        }

    def _tokens(self, messages: list[AnyMessage], thread: _Thread) -> tuple[int, str | None]:
        """The prompt's tokens now: the last reply's real prompt and completion plus what
        came after it; an estimate when there is no usage, when the usage predates a
        compaction, or when it measured a request the engine assembled."""
        if thread.assembled:
            return estimate_tokens(to_openai(m) for m in messages), None
        for index in range(len(messages) - 1, -1, -1):
            message = messages[index]
            if isinstance(message, AIMessage):
                usage = _usage(message)
                if usage is None or (message.id is not None and message.id == thread.compacted_at):
                    break
                after = estimate_tokens(to_openai(m) for m in messages[index + 1 :])
                return usage["prompt_tokens"] + usage["completion_tokens"] + after, message.id
        return estimate_tokens(to_openai(m) for m in messages), None

    def wrap_model_call(
        self, request: ModelRequest, handler: Callable[[ModelRequest], ModelResponse]
    ) -> ModelResponse:
        """The request the model sees: the engine's ``select_context``."""
        return handler(self._selected(request))

    def _without_our_tools(self, request: ModelRequest) -> ModelRequest:
        """``request`` without the engine's tools when its model cannot take tools."""
        model = request.model
        ours = {tool.name for tool in self.tools}
        if not ours or type(model).bind_tools is not BaseChatModel.bind_tools:
            return request
        kept = [t for t in request.tools if getattr(t, "name", None) not in ours]
        if type(model) not in self._told:
            self._told.add(type(model))
            logger.info(
                "langchain.engine_tools_not_offered",
                model=type(model).__name__,
                reason="the model cannot take tools (its bind_tools is LangChain's default)",
            )
        return request.override(tools=kept)

    def _selected(self, request: ModelRequest) -> ModelRequest:
        request = self._without_our_tools(request)
        self._use_model(request.model)
        session = self._session()
        thread = self._thread(session)
        system = [request.system_message] if request.system_message is not None else []
        converted = MessageMap()
        plain = converted.to_openai([*system, *request.messages])
        self._seen[session] = plain
        thread.assembled = False
        if not request.messages:
            return request
        selected = self.host.select_context(
            plain,
            conversation_messages=plain[:-1],
            incoming_message=plain[-1],
            budget_tokens=self.host.input_budget_tokens,
            session_id=session,
        )
        if selected is plain:
            return request
        thread.assembled = True
        back = cast("list[AnyMessage]", converted.from_openai(selected))
        if back and isinstance(back[0], SystemMessage):
            return request.override(system_message=back[0], messages=back[1:])
        return request.override(system_message=None, messages=back)

    def after_model(self, state: Any, runtime: Any) -> dict[str, Any] | None:
        """The reply's real usage to the engine; a reply without tool calls ends the turn."""
        messages = state["messages"]
        if not messages or not isinstance(messages[-1], AIMessage):
            return None
        reply: AIMessage = messages[-1]
        usage = _usage(reply)
        self.host.record_usage(usage)
        if not reply.tool_calls:
            session = self._session()
            thread = self._thread(session)
            thread.turns += 1
            plain = [to_openai(m) for m in messages]
            self.host.turn_complete(
                plain, usage, session_id=session, turn_id=f"turn-{thread.turns}"
            )
        return None

    # ------------------------------------------------------------------ async

    async def abefore_agent(self, state: Any, runtime: Any) -> dict[str, Any] | None:
        return await _off_loop(self.before_agent, state, runtime)

    async def abefore_model(self, state: Any, runtime: Any) -> dict[str, Any] | None:
        return await _off_loop(self.before_model, state, runtime)

    async def awrap_model_call(
        self, request: ModelRequest, handler: Callable[[ModelRequest], Awaitable[ModelResponse]]
    ) -> ModelResponse:
        return await handler(await _off_loop(self._selected, request))

    async def aafter_model(self, state: Any, runtime: Any) -> dict[str, Any] | None:
        return await _off_loop(self.after_model, state, runtime)

    # ------------------------------------------------------------------ end

    def status(self) -> Mapping[str, Any]:
        """The engine's ``get_status()`` and the host's counters."""
        return self.host.status()

    def close(self) -> None:
        """End every thread's session in the engine, and close the host if this built it."""
        with self._lock:
            sessions, self._threads = list(self._threads), {}
        for session in sessions:
            self.host.end_session(session, self._seen.pop(session, []))
        if self._owns_host:
            self.host.close()


async def _off_loop(function: Callable[..., _T], *args: Any) -> _T:
    """``function(*args)`` on a worker thread, in the caller's context (LangGraph's config
    travels in a context variable, and names the thread)."""
    return await asyncio.to_thread(function, *args)

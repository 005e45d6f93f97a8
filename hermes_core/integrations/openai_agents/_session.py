"""``ContextEngineSession``: an Agents SDK ``Session`` whose history an engine manages."""

from __future__ import annotations

import asyncio
from typing import Any

from agents import Agent, RunConfig, RunContextWrapper, RunHooks, SQLiteSession
from agents.items import ModelResponse, TResponseInputItem
from agents.memory import Session, SessionABC

from hermes_core._tokens import estimate_tokens
from hermes_core.host import ContextHost
from hermes_core.integrations._due import pass_due
from hermes_core.integrations.openai_agents._input_filter import ContextEngineInputFilter
from hermes_core.integrations.openai_agents._items import ItemMap
from hermes_core.integrations.openai_agents._replacing import start_replacing
from hermes_core.integrations.openai_agents._tools import engine_function_tools

__all__ = ["ContextEngineRunHooks", "ContextEngineSession"]

#: The file in the Hermes home that keeps the agents' items across restarts.
ITEMS_FILE = "openai_agents.db"


def _ends_turn(items: list[Any]) -> bool:
    """Whether ``items`` end with the assistant's answer (not a tool call, not a result)."""
    last = items[-1] if items else None
    return isinstance(last, dict) and last.get("role") == "assistant"


class ContextEngineRunHooks(RunHooks[Any]):
    """``Runner.run(..., hooks=session.hooks)``: the model's real usage reaches the engine
    after every call (``record_usage``), as it does inside Hermes Agent."""

    def __init__(self, session: ContextEngineSession) -> None:
        self._session = session

    async def on_llm_end(
        self, context: RunContextWrapper[Any], agent: Agent[Any], response: ModelResponse
    ) -> None:
        usage = response.usage
        self._session.usage(
            {
                "prompt_tokens": usage.input_tokens,
                "completion_tokens": usage.output_tokens,
                "total_tokens": usage.total_tokens,
            }
        )


class ContextEngineSession(SessionABC):
    """Conversation memory for ``Runner.run(agent, input, session=...)``, managed by the
    host's engine.

    The items live in ``underlying`` (default: an Agents SDK ``SQLiteSession`` in
    ``$HERMES_HOME/openai_agents.db``, so they survive restarts). Every finished turn
    is handed to the engine (``on_turn_complete``): LCM stores each message in its own
    store, where its tools find them. When the engine's ``should_compress`` says so,
    ``compress`` runs and the stored items become what it returns (the items it kept,
    and its summary), as Hermes Agent's history does; with LCM nothing is lost, since
    its store keeps every original. The replacement is all or nothing: a run cancelled
    during it leaves the old items or the new ones, never none
    (:mod:`~hermes_core.integrations.openai_agents._replacing`).

    Pass :meth:`run_config` (or ``input_filter``) to the run, so each model call
    gets the engine's ``select_context``; ``hooks`` as the run's ``hooks``, so the
    engine gets the model's real usage (without them, each turn's estimated size stands
    in for it); and ``tools`` to the agent, so the model can search what was
    compacted. ``context_length`` is the model's whole window (else
    ``model.context_length`` in config.yaml).
    """

    def __init__(
        self,
        session_id: str,
        host: ContextHost,
        *,
        context_length: int | None = None,
        model: str = "agent-model",
        underlying: Session | None = None,
    ) -> None:
        self.session_id = session_id
        self.host = host
        self.input_filter = ContextEngineInputFilter(
            host, session_id=session_id, context_length=context_length, model=model
        )
        if underlying is None:
            host.hermes_home.mkdir(parents=True, exist_ok=True)
            underlying = SQLiteSession(session_id, db_path=host.hermes_home / ITEMS_FILE)
        self.underlying: Session = underlying
        self.hooks = ContextEngineRunHooks(self)
        self._started = False
        self._lock = asyncio.Lock()
        self._last_usage: dict[str, int] | None = None  # of the model's last call
        #: A replacement of the items under way: a cancelled run does not stop it, and
        #: every later call waits for it.
        self._replacing: asyncio.Future[None] | None = None

    @property
    def tools(self) -> list[Any]:
        """The engine's tools as ``FunctionTool``s answering for this session."""
        return list(engine_function_tools(self.host, self.session_id))

    def run_config(self, **settings: Any) -> RunConfig:
        """A ``RunConfig`` with this session's input filter; ``settings`` are its other
        fields (``model``, ``tracing_disabled``, ...)."""
        return RunConfig(call_model_input_filter=self.input_filter, **settings)

    def usage(self, usage: dict[str, int]) -> None:
        """The model's real usage of its last call (what ``hooks`` report)."""
        self._last_usage = usage
        self.host.record_usage(usage)

    def _start(self) -> None:
        if not self._started:
            self._started = True
            self.host.start_session(self.session_id)

    # ------------------------------------------------------------------ the protocol

    async def _settled(self) -> None:
        """Wait for a replacement a cancelled run left under way."""
        if self._replacing is not None and not self._replacing.done():
            await asyncio.shield(self._replacing)

    async def get_items(self, limit: int | None = None) -> list[TResponseInputItem]:
        """The stored items, the latest ``limit`` of them when given."""
        await self._settled()
        return await self.underlying.get_items(limit)

    async def add_items(self, items: list[TResponseInputItem]) -> None:
        """Store ``items``; when they end a turn, hand it to the engine, and compact when
        the engine asks for it."""
        async with self._lock:
            await self._settled()
            await self.underlying.add_items(items)
            if not _ends_turn(items):
                return
            stored = await self.underlying.get_items()
            compacted = await asyncio.to_thread(self._turn_ended, stored)
            if compacted is not None:  # all or nothing, whenever the run is cancelled
                self._replacing = start_replacing(self.underlying, compacted)
                await asyncio.shield(self._replacing)

    def _turn_ended(self, stored: list[Any]) -> list[Any] | None:
        """``on_turn_complete``, then a compaction pass when due: the items to store
        instead, or None to keep them."""
        self._start()
        mapping = ItemMap(stored)
        messages = mapping.messages
        usage, self._last_usage = self._last_usage, None
        tokens = estimate_tokens(messages)
        if usage is None:  # no hooks: the history's size stands in for the model's count
            usage = {"prompt_tokens": tokens, "completion_tokens": 0, "total_tokens": tokens}
            self.host.record_usage(usage)
        elif not self.input_filter.assembled:  # the request was the history: measured
            tokens = usage["prompt_tokens"] + usage["completion_tokens"]
        self.host.turn_complete(messages, usage, session_id=self.session_id)
        if not pass_due(self.host, tokens, lambda: messages):
            return None
        compacted = self.host.compress(messages, current_tokens=tokens, session_id=self.session_id)
        if compacted is messages:
            return None
        return mapping.items(compacted)

    async def pop_item(self) -> TResponseInputItem | None:
        """Remove and return the latest item."""
        await self._settled()
        return await self.underlying.pop_item()

    async def clear_session(self) -> None:
        """Forget the items, and reset the engine's session (``on_session_reset``). An
        engine with a store keeps what it stored: LCM's store keeps every message of the
        session, and may bring one back when it is relevant again; to start a
        conversation with no past, use a new ``session_id``."""
        await self._settled()
        await asyncio.to_thread(self.host.reset_session, session_id=self.session_id)
        await self.underlying.clear_session()

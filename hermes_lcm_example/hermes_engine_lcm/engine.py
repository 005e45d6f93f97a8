"""LCMEngine: a lossless store, a summary DAG and retrieval tools, behind the engine contract."""

from __future__ import annotations

import json
import os
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any

from hermes_core import (
    LLM,
    ContextEngine,
    FailureCooldown,
    HermesConfig,
    Message,
    Messages,
    PruneGate,
    SessionInstructions,
    StandingInstructions,
    ToolSchema,
    Usage,
    estimate_tokens,
    get_logger,
    role_of,
)
from hermes_core import hermes_home as default_home
from hermes_engine_lcm import tools
from hermes_engine_lcm.compaction import compact, prepare_leaves
from hermes_engine_lcm.own import is_lcm_own
from hermes_engine_lcm.prepared import SummaryCache
from hermes_engine_lcm.pruning import movable, stub_stored
from hermes_engine_lcm.relevance.models import choose_model, usable_encoder
from hermes_engine_lcm.relevance.progress import embeddings_status
from hermes_engine_lcm.relevance.ranking import HybridRelevance, KeywordRelevance, Relevance
from hermes_engine_lcm.render import SUMMARY_PREFIX
from hermes_engine_lcm.requests import Ask, Requests, keep, query_of, turn_in_progress
from hermes_engine_lcm.selection import Shares, active_messages
from hermes_engine_lcm.settings import RULES, LCMSettings, embedding_setting
from hermes_engine_lcm.store.cache import MessageCache
from hermes_engine_lcm.store.keys import UNNAMED_SESSION, session_key
from hermes_engine_lcm.store.messages import ingest, remember_handed
from hermes_engine_lcm.store.nodes import active_items
from hermes_engine_lcm.store.open import open_store
from hermes_engine_lcm.store.records import (
    clear_active_context,
    open_session,
    session_counts,
)

__all__ = ["LCMEngine"]

logger = get_logger("hermes_core.engines.lcm")

#: Compaction leaves the active context at this share of the threshold.
TARGET_SHARE = 0.5
#: A summary is at most this share of the threshold, so summaries scale with the window.
SUMMARY_SHARE_OF_THRESHOLD = 0.2
#: Seconds kept free before the host's deadline, so a pass never commits after it.
DEADLINE_MARGIN = 0.25


class LCMEngine(ContextEngine):
    """Lossless Context Management: nothing is ever lost, only folded.

    Thread-safe: one instance can serve concurrent sessions; every method
    that concerns a session accepts ``session_id`` (the host passes it) and
    otherwise uses the session of the last ``on_session_start``.
    """

    config_rules = MappingProxyType({"lcm": RULES})

    def __init__(
        self,
        config: Mapping[str, Any] | None = None,
        hermes_home: Path | str | None = None,
        llm: LLM | None = None,
        hermes_config: HermesConfig | None = None,
        *,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        """``clock`` is what the LLM's failure cooldown reads (tests pass one that stands
        still, so that a cooldown is the same on a busy machine)."""
        #: What made this engine, for clone_for_agent.
        self._made_with = (config, hermes_home, llm, hermes_config, clock)
        self.settings = LCMSettings.from_config(config, hermes_config)
        self.prune_gate = PruneGate.from_config(hermes_config or config)
        self.threshold_percent = self.settings.threshold
        # the host's environment and home (a check's throwaway ones included), never the
        # process's when the host said otherwise
        environ = hermes_config.env if hermes_config is not None else os.environ
        if hermes_home:
            home = Path(hermes_home).expanduser()
        else:
            home = hermes_config.home if hermes_config is not None else default_home(environ)
        self.database = open_store(self.settings, home, environ)
        self.llm = llm
        self.cooldown = FailureCooldown(clock)  # shared by the passes of every session
        #: Leaf summaries prepared ahead of the passes that need them (every session's).
        self.summaries = SummaryCache()
        self._session = UNNAMED_SESSION  # until on_session_start: no string id names it
        self._lock = threading.Lock()
        self._tail_exceeds: dict[str, bool] = {}
        #: Per session, the tokens of the history the agent held at the request LCM built
        #: this turn: that request fills the budget from the store, and its size says
        #: nothing of whether the agent's own context needs folding. Cleared when the turn
        #: completes (a host that never asks for requests decides by usage alone).
        self._held: OrderedDict[str, int] = OrderedDict()
        self._messages = MessageCache()  # stored messages never change: read each once
        #: The requests built for each session, and what the next grows from.
        self.requests = Requests(
            self.database,
            self._messages,
            Shares(
                tail=self.settings.request_tail_share,
                summaries=self.settings.summary_share,
                tail_messages=self.settings.fresh_tail_messages,
            ),
            self.settings.grow_requests,
        )
        self.relevance: Relevance = KeywordRelevance()
        self._embedder: Any = None
        #: The user's standing instructions per session, carried in every request.
        self.standing = SessionInstructions(skip=is_lcm_own)
        #: Which model ranks by meaning (None: keywords only), and why, for the status.
        # models are read, never written: a check's throwaway home finds the user's
        models_home = hermes_config.user_home if hermes_config is not None else None
        models_home = models_home or home
        self.embedding_model, self.embedding_choice = choose_model(
            embedding_setting(self.settings, config, hermes_config, environ), models_home
        )
        if self.embedding_model is not None:
            self._use_embeddings(self.embedding_model, models_home)

    def _use_embeddings(self, model: str, home: Path) -> None:
        """Rank by meaning too; a model that cannot be used leaves keyword relevance, with a
        warning that says why (nothing stored depends on it). Never another engine: the
        rest of LCM serves as it would without embeddings."""
        encoder, error = usable_encoder(model, home)
        if encoder is None:
            self.embedding_model, self.embedding_choice = None, f"off: {error}"
            logger.warning(
                "lcm.embeddings_unavailable", model=model, error=error, using="keyword relevance"
            )
            return
        # the encoder loaded, so the extra (numpy) is installed: these import
        from hermes_engine_lcm.relevance.index import VectorIndex
        from hermes_engine_lcm.relevance.views import label
        from hermes_engine_lcm.relevance.worker import BackgroundEmbedder

        # vectors are labelled by the model's content: workers of a fleet that reach the same
        # model by other paths or names share them, and a model changed in place embeds again
        key = label(encoder.fingerprint)
        self.relevance = HybridRelevance(
            self.relevance, encoder, VectorIndex(key, encoder.dimensions, self.database.location)
        )
        self._embedder = BackgroundEmbedder(self.database, encoder, key)

    def flush_embeddings(self, timeout: float | None = None) -> bool:
        """Wait until every stored message has its vector; True at once without embeddings.
        For tests and benchmarks: the agent's calls never wait for embeddings."""
        return self._embedder is None or bool(self._embedder.flush(timeout))

    @property
    def name(self) -> str:
        return "lcm"

    def _sid(self, session_id: str | None) -> str:
        """The store's key of ``session_id`` (any string, ``""`` included, is a session of
        its own); None means the session of the last ``on_session_start``."""
        return self._session if session_id is None else session_key(session_id)

    def _ingest(self, session_id: str, messages: Any) -> list[int]:
        if not isinstance(messages, list) or not messages:
            return []
        self.standing.observe(session_id, messages)
        with self.database.write(session_id) as db:
            ids = ingest(db, session_id, messages, skip=is_lcm_own, fts=self.database.fts)
        if ids and self._embedder is not None:
            self._embedder.wake()
        return ids

    def update_from_response(self, usage: dict[str, Any]) -> None:
        self.last_prompt_tokens = int(usage.get("prompt_tokens", 0))
        self.last_completion_tokens = int(usage.get("completion_tokens", 0))
        self.last_total_tokens = int(usage.get("total_tokens", 0))

    def should_compress(self, prompt_tokens: int | None = None) -> bool:
        return self.should_compress_info(prompt_tokens)[0]

    def should_compress_info(self, prompt_tokens: int | None = None) -> tuple[bool, str | None]:
        tokens = self.last_prompt_tokens if prompt_tokens is None else prompt_tokens
        if not (self.threshold_tokens > 0 and tokens >= self.threshold_tokens):
            return False, None
        if self._tail_exceeds.get(self._session):
            return False, "tail_exceeds_budget"
        held = self._held.get(self._session)
        if held is not None and held < self.threshold_tokens:
            # the request was ours, filled from the store; the agent's context is small
            return False, "request_assembled_by_lcm"
        return True, None

    def compress(
        self,
        messages: Messages,
        current_tokens: int | None = None,
        focus_topic: str | None = None,
        force: bool = False,
        session_id: str | None = None,
        deadline: float | None = None,
    ) -> Messages:
        """Store what is new, fold the oldest context into summaries, return the active context.

        An automatic pass folds until the active context is at half the threshold
        (under that, it folds nothing). A manual one (``force``, as Hermes Agent's
        ``/compress`` passes it, or a ``focus_topic``) folds every raw message outside
        the fresh tail into leaf summaries, over the threshold or under it;
        ``focus_topic`` gets most of each summary's room.
        """
        sid = self._sid(session_id)
        self._ingest(sid, messages)
        own_deadline = self._deadline(deadline)
        target = int(self.threshold_tokens * TARGET_SHARE)
        tail_tokens = int(self.threshold_tokens * self.settings.fresh_tail_share) or None
        manual = force or bool(focus_topic)
        prepared = not manual and self.summaries.was_prepared(sid)
        report = compact(
            self.database,
            sid,
            self.settings,
            self.llm,
            0 if manual else target,
            own_deadline,
            self.cooldown,
            tail_tokens=tail_tokens,
            summary_tokens=self._summary_tokens(),
            condense=not manual,
            focus=focus_topic,
            cache=self.summaries,
            # with summaries prepared, a pass under the threshold folds only what is ready
            ready_only_below=self.threshold_tokens if prepared else None,
        )
        with self._lock:
            self._tail_exceeds[sid] = 0 < self.threshold_tokens < report.tail_tokens
        if report.passes:
            self.compression_count += 1
            self.last_prompt_tokens = -1
        with self.database.write(sid) as db:
            active = active_messages(db, active_items(db, sid))
            if messages and estimate_tokens(active) >= estimate_tokens(messages):
                # the host's list was already smaller than the store's active context (it
                # rebuilt or trimmed it): giving back more would undo its work. Its record
                # stays the one ingest wrote: that list's end may stand for an older stored
                # message than the store's last (another host went on), and recording it at
                # the store's end would make its next turn store those messages again.
                return messages
            block = self.standing.of(sid).carried(self.threshold_tokens or self.context_length)
            active = StandingInstructions.place(active, block.message)
            remember_handed(db, sid, active)
        return active

    def _deadline(self, host_deadline: float | None) -> float:
        """When a pass must be done: the engine's own bound, and before the host's."""
        own = time.monotonic() + self.settings.deadline_seconds
        return own if host_deadline is None else min(own, host_deadline - DEADLINE_MARGIN)

    def _summary_tokens(self) -> int:
        return max(32, int(self.threshold_tokens * SUMMARY_SHARE_OF_THRESHOLD))

    @property
    def prepares_ahead(self) -> bool:  # type: ignore[override]
        """Only with an auxiliary LLM: without one a summary costs nothing to make."""
        return self.llm is not None

    def prepare_compress(
        self,
        messages: Messages,
        current_tokens: int | None = None,
        session_id: str | None = None,
        deadline: float | None = None,
    ) -> None:
        """Store what is new, and summarise ahead, with the auxiliary LLM, the leaf folds a
        pass would make now (:func:`~hermes_engine_lcm.compaction.prepare_leaves`): nothing
        is folded, the summaries wait in a cache keyed by the text they summarise. Without
        an LLM (or during its cooldown) a summary costs nothing: nothing is prepared.

        A pass then takes each fold's summary from the cache when it is there; once under
        the threshold it stops at the first fold not ready instead of waiting.
        """
        if self.llm is None or self.cooldown.remaining() or self.threshold_tokens <= 0:
            return
        sid = self._sid(session_id)
        self.summaries.start(sid)
        made = 0
        try:
            self._ingest(sid, messages)
            own_deadline = self._deadline(deadline)
            made = prepare_leaves(
                self.database,
                sid,
                self.settings,
                self.llm,
                own_deadline,
                self.summaries,
                self.cooldown,
                tail_tokens=int(self.threshold_tokens * self.settings.fresh_tail_share) or None,
                summary_tokens=self._summary_tokens(),
            )
        finally:
            self.summaries.done(sid, prepared=made > 0)

    def get_automatic_compaction_status_message(
        self, *, phase: str, default_message: str, **context: Any
    ) -> str | None:
        """The host's line, saying whether summaries were prepared ahead (no wait) or are
        still being prepared."""
        if not self.emit_automatic_compaction_status:
            return None
        state = self.summaries.state(self._session) if self.llm is not None else None
        if state == "ready":
            return f"{default_message} (summaries prepared ahead: no wait)"
        if state == "preparing":
            return f"{default_message} (summaries not ready yet: waiting for the summariser)"
        return default_message

    def prune_tool_results_only(
        self,
        messages: Messages,
        current_tokens: int | None = None,
        session_id: str | None = None,
    ) -> tuple[Messages, int]:
        """Below the threshold, move old tool results out of the request: each becomes a
        stub naming its stored message, which ``lcm_expand`` returns whole.

        Gated as Hermes Agent's compressor gates it (:class:`~hermes_core.PruneGate`:
        ``compression.proactive_prune_tokens``, default 0: never); the fresh tail
        (``lcm.fresh_tail_messages``) is kept as it is. Every message is stored before any
        is stubbed, so nothing is lost.
        """
        if not self.prune_gate.reached(current_tokens):
            return messages, 0  # before measuring: an agent asks after every response
        sid = self._sid(session_id)
        before = estimate_tokens(messages)
        if not self.prune_gate.grown_back(before, sid):
            return messages, 0
        gate, tail = self.prune_gate, max(0, len(messages) - self.settings.fresh_tail_messages)
        wanted = [i for i in range(tail) if movable(messages[i], gate.min_result_chars)]
        if not wanted:
            return messages, 0
        self._ingest(sid, messages)
        with self.database.write(sid) as db:
            return stub_stored(
                db, sid, messages, wanted, lambda freed: gate.commit(before, before - freed, sid)
            )

    def clone_for_agent(self) -> LCMEngine:
        """A new engine over the same store, for another agent: its own connections,
        caches and embedding worker (none is shared), the same settings, LLM and model
        figures."""
        config, hermes_home, llm, hermes_config, clock = self._made_with
        twin = LCMEngine(config, hermes_home, llm, hermes_config, clock=clock)
        return self.copy_model_figures(twin)

    def select_context(
        self,
        request_messages: Messages,
        *,
        conversation_messages: Messages | None = None,
        incoming_message: Message | None = None,
        budget_tokens: int = 0,
        session_id: str | None = None,
    ) -> Messages | None:
        """System prompt, summaries, the originals most relevant to the ask, and the fresh tail."""
        sid = self._sid(session_id)
        history = list(
            conversation_messages if conversation_messages is not None else request_messages
        )
        if incoming_message is not None and not turn_in_progress(history, incoming_message):
            history.append(incoming_message)
        stored = self._ingest(sid, history)
        # by meaning, only what was stored before this request's own messages: their vectors
        # race the worker, and the same ask must get the same request
        relevance = self.relevance.stored_until(min(stored) - 1 if stored else None)
        with self._lock:
            keep(self._held, sid, estimate_tokens(history))
        query = query_of(history, incoming_message)
        budget = budget_tokens or self.context_length
        if budget <= 0:
            return None
        block = self.standing.of(sid).carried(budget).message
        asked = incoming_message is not None and role_of(history[-1]) == "user"  # not empty
        ask = Ask(sid, history, query, asked, budget, block, self.compression_count, relevance)
        return self.requests.request(ask)

    def on_turn_complete(
        self,
        messages: Messages,
        usage: Usage | None = None,
        session_id: str | None = None,
        **kwargs: Any,
    ) -> None:
        sid = self._sid(session_id)
        self._ingest(sid, messages)
        with self._lock:  # the turn is over: the next decision waits for the next request
            self._held.pop(sid, None)

    def on_session_start(self, session_id: str, **kwargs: Any) -> None:
        """Resume the session's persisted state: ingestion goes on after its last stored message."""
        sid = self._session = session_key(session_id)
        with self.database.write(sid) as db:
            open_session(db, sid)

    def on_session_end(self, session_id: str, messages: Messages) -> None:
        """Store what is new and forget what this engine kept in memory for the session
        (the store keeps everything)."""
        sid = session_key(session_id)
        self._ingest(sid, messages)
        self._forget(sid)
        self.database.checkpoint()

    def _forget(self, sid: str) -> None:
        self.prune_gate.reset(sid)
        with self._lock:
            self._tail_exceeds.pop(sid, None)
            self._held.pop(sid, None)
        self.requests.forget(sid)

    def close(self) -> None:
        """Stop the embedding worker (what it had not embedded is embedded by the next engine)
        and close every database connection this engine opened (a later call reopens one)."""
        if self._embedder is not None:
            self._embedder.close()
            self._embedder = None
        self.database.close()

    def on_session_reset(self, session_id: str | None = None) -> None:
        """A fresh active context for the session; the store keeps its history."""
        super().on_session_reset()
        sid = self._sid(session_id)
        with self.database.write(sid) as db:
            clear_active_context(db, sid)
            remember_handed(db, sid, [])
        self._forget(sid)
        self.standing.forget(sid)  # a new conversation: the rules of the last one end
        self.summaries.forget(sid)

    def get_tool_schemas(self) -> list[ToolSchema]:
        schemas: list[ToolSchema] = json.loads(json.dumps(tools.SCHEMAS))  # their own copy
        return schemas

    def handle_tool_call(
        self,
        name: str,
        args: dict[str, Any],
        messages: Messages | None = None,
        session_id: str | None = None,
        **kwargs: Any,
    ) -> str:
        sid = self._sid(session_id)
        if isinstance(messages, list) and messages:
            self._ingest(sid, messages)  # the live conversation is searchable at once
        sessions = None if self.settings.cross_session_search else [sid]
        ledger = self.standing.of(sid)
        return tools.dispatch(name, args, self.database, sid, sessions, self.relevance, ledger)

    def get_status(self) -> dict[str, Any]:
        status = super().get_status()
        with self.database.read() as db:
            stored, summaries = session_counts(db, self._session)
        status.update(
            session_id=self._session,
            stored_messages=stored,
            summaries=summaries,
            database=self.database.location,
            backend=self.database.backend,
            full_text_search=self.database.fts,
            llm_cooldown_seconds=self.cooldown.remaining(),
            summary_prefix=SUMMARY_PREFIX,
            standing_instructions=self.standing.of(self._session).shown(),
            embeddings=embeddings_status(
                self.database, self.embedding_model, self.embedding_choice, self._embedder
            ),
            summary_prepared=self.summaries.state(self._session),
            prepared_summaries_used=self.summaries.hits,
            summaries_not_ready=self.summaries.misses,
        )
        return status

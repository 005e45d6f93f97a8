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
    copy_messages,
    estimate_message_tokens,
    estimate_tokens,
    get_logger,
    role_of,
    text_of,
)
from hermes_core import hermes_home as default_home
from hermes_engine_lcm import tools
from hermes_engine_lcm.compaction import compact, prepare_leaves
from hermes_engine_lcm.exact import first, holding
from hermes_engine_lcm.growing import (
    HEADROOM,
    RECALLED,
    Built,
    grown,
    is_recall,
    new_since,
    recall_note,
)
from hermes_engine_lcm.growing import key as growing_key
from hermes_engine_lcm.prepared import SummaryCache
from hermes_engine_lcm.pruning import is_lcm_stub, movable, stub
from hermes_engine_lcm.relevance.models import choose_model, usable_encoder
from hermes_engine_lcm.relevance.progress import EmbeddingProgress
from hermes_engine_lcm.relevance.ranking import HybridRelevance, KeywordRelevance, Relevance
from hermes_engine_lcm.render import SUMMARY_PREFIX, is_lcm_summary
from hermes_engine_lcm.selection import Shares, active_messages, build_request
from hermes_engine_lcm.settings import RULES, LCMSettings, embedding_setting
from hermes_engine_lcm.store.cache import MessageCache
from hermes_engine_lcm.store.embeddings import vector_count
from hermes_engine_lcm.store.keys import UNNAMED_SESSION, session_key
from hermes_engine_lcm.store.messages import OVERLAP, fingerprint, ingest, remember_handed
from hermes_engine_lcm.store.nodes import active_items
from hermes_engine_lcm.store.open import open_store
from hermes_engine_lcm.store.records import (
    clear_active_context,
    latest_by_fingerprint,
    open_session,
    session_counts,
)

__all__ = ["LCMEngine"]

logger = get_logger("hermes_core.engines.lcm")

#: Compaction leaves the active context at this share of the threshold.
TARGET_SHARE = 0.5
#: A summary is at most this share of the threshold, so summaries scale with the window.
SUMMARY_SHARE_OF_THRESHOLD = 0.2
#: Sessions whose last request is kept for a repeated ask.
KEPT_SELECTIONS = 64
#: The ranked originals a grown request's new ask looks through for what it lacks.
RANKED_FOR_NOTE = 16
#: Seconds kept free before the host's deadline, so a pass never commits after it.
DEADLINE_MARGIN = 0.25


def _keep(cache: OrderedDict[str, Any], sid: str, value: Any) -> None:
    """``value`` for session ``sid``, the most recent; past :data:`KEPT_SELECTIONS`
    sessions, the least recently used is forgotten (the caller holds the engine's lock)."""
    cache[sid] = value
    cache.move_to_end(sid)
    while len(cache) > KEPT_SELECTIONS:
        cache.popitem(last=False)


def _turn_in_progress(history: list[Any], incoming: Any) -> bool:
    """Whether ``history`` already holds ``incoming`` as the user message of a turn still in
    progress: its last user message, followed by nothing but tool calls and their results
    (Hermes 0.22 passes the turn's user message as ``incoming_message`` at every call of a
    tool loop; appended again, it would end the request and the model would ask again)."""
    for message in reversed(history):
        role = role_of(message)
        if role == "user":
            return bool(message == incoming)
        if role == "tool" or (role == "assistant" and message.get("tool_calls")):
            continue
        return False
    return False


def _lcm_own(message: Any) -> bool:
    """Whether ``message`` is LCM's own text (a summary, a stub, a note of recalled
    originals), never stored as a message."""
    return (
        is_lcm_summary(message)
        or is_lcm_stub(message)
        or is_recall(message)
        or StandingInstructions.is_block(message)
    )


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
        #: The last request built per session, for a repeated ask (retries); the most recently
        #: used :data:`KEPT_SELECTIONS` sessions only, so idle sessions cost no memory.
        self._selections: OrderedDict[str, tuple[Any, Messages]] = OrderedDict()
        #: Per session, the tokens of the history the agent held at the request LCM built
        #: this turn: that request fills the budget from the store, and its size says
        #: nothing of whether the agent's own context needs folding. Cleared when the turn
        #: completes (a host that never asks for requests decides by usage alone).
        self._held: OrderedDict[str, int] = OrderedDict()
        #: Per session, the last request built and what it was made from: the next request
        #: grows from it (:mod:`.growing`).
        self._built: OrderedDict[str, Built] = OrderedDict()
        self._messages = MessageCache()  # stored messages never change: read each once
        self.relevance: Relevance = KeywordRelevance()
        self._embedder: Any = None
        #: The user's standing instructions per session, carried in every request.
        self.standing = SessionInstructions(skip=_lcm_own)
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
            ids = ingest(db, session_id, messages, skip=_lcm_own, fts=self.database.fts)
        if ids and self._embedder is not None:
            self._embedder.wake()
        return ids

    # ------------------------------------------------------------------ decisions

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

    # ------------------------------------------------------------------ compaction

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
        own_deadline = time.monotonic() + self.settings.deadline_seconds
        if deadline is not None:
            own_deadline = min(own_deadline, deadline - DEADLINE_MARGIN)
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
            own_deadline = time.monotonic() + self.settings.deadline_seconds
            if deadline is not None:
                own_deadline = min(own_deadline, deadline - DEADLINE_MARGIN)
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
        tail = max(0, len(messages) - self.settings.fresh_tail_messages)
        wanted = [i for i in range(tail) if movable(messages[i], self.prune_gate.min_result_chars)]
        if not wanted:
            return messages, 0
        self._ingest(sid, messages)
        out = list(messages)
        with self.database.write(sid) as db:
            stored = latest_by_fingerprint(db, sid, len(messages) + OVERLAP)
            for i in wanted:
                message_id = stored.get(fingerprint(messages[i]))
                if message_id is not None:
                    out[i] = stub(messages[i], message_id)
            moved = [i for i in wanted if out[i] is not messages[i]]
            freed = sum(
                estimate_message_tokens(messages[i]) - estimate_message_tokens(out[i])
                for i in moved
            )
            if not moved or not self.prune_gate.commit(before, before - freed, sid):
                return messages, 0
            remember_handed(db, sid, out)  # the host's list from now on: stubs, not results
        return out, len(moved)

    def clone_for_agent(self) -> LCMEngine:
        """A new engine over the same store, for another agent: its own connections,
        caches and embedding worker (none is shared), the same settings, LLM and model
        figures."""
        config, hermes_home, llm, hermes_config, clock = self._made_with
        twin = LCMEngine(config, hermes_home, llm, hermes_config, clock=clock)
        return self.copy_model_figures(twin)

    # ------------------------------------------------------------------ per request

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
        if incoming_message is not None and not _turn_in_progress(history, incoming_message):
            history.append(incoming_message)
        stored = self._ingest(sid, history)
        # by meaning, only what was stored before this request's own messages: their vectors
        # race the worker, and the same ask must get the same request
        relevance = self.relevance.stored_until(min(stored) - 1 if stored else None)
        with self._lock:
            _keep(self._held, sid, estimate_tokens(history))
        query = text_of(incoming_message) if incoming_message is not None else ""
        if not query.strip():  # a tool result came last: ask about the latest user message
            query = next((text_of(m) for m in reversed(history) if role_of(m) == "user"), "")
        budget = budget_tokens or self.context_length
        if budget <= 0:
            return None
        block = self.standing.of(sid).carried(budget).message
        with self._lock:
            built = self._built.get(sid) if self.settings.grow_requests else None
        new = new_since(built, history, str(block), self.compression_count)
        if built is not None and new is not None:
            asked = bool(new) and incoming_message is not None and role_of(new[-1]) == "user"
            note = self._recalled(sid, query, built, new, relevance, budget) if asked else None
            request = grown(built, new, budget, note)
            if request is not None:  # the last request and what is new: the same prefix
                self._remember(sid, request, history, block)
                return copy_messages(request)
        if built is not None:  # built anew: leave the turns after it room to grow into
            budget = int(budget * (1 - HEADROOM))
        budget -= estimate_tokens([block]) if block is not None else 0
        shares = Shares(
            tail=self.settings.request_tail_share,
            summaries=self.settings.summary_share,
            tail_messages=self.settings.fresh_tail_messages,
        )
        with self.database.read() as db:
            items = active_items(db, sid)
            key = (tuple((i.position, i.ref_id) for i in items), query, budget, str(block))
            cached = self._selections.get(sid)
            if cached is not None and cached[0] == key:
                return copy_messages(cached[1])  # the agent may edit what it gets in place
            messages = build_request(
                db, sid, items, query, budget, shares, self._messages, relevance,
                self.database.fts,
            )  # fmt: skip
        if messages is None:
            return None
        messages = StandingInstructions.place(messages, block)
        with self._lock:
            _keep(self._selections, sid, (key, messages))
        self._remember(sid, messages, history, block)
        return copy_messages(messages)

    def _recalled(
        self,
        sid: str,
        query: str,
        built: Built,
        new: Messages,
        relevance: Relevance,
        budget: int,
    ) -> Message | None:
        """The note of the stored originals most relevant to ``query`` that ``built``'s
        request with ``new`` appended would lack (:mod:`.growing`), those holding a term the
        ask quotes word for word first (:mod:`.exact`): the best of them, then the others
        while they fit ``budget`` (a best one that does not fit has the request built
        anew); None when it lacks none."""
        grown_by = [*built.request, *new]
        present = {growing_key(m) for m in grown_by}
        with self.database.read() as db:
            quoted = holding(db, sid, query, self._messages, self.database.fts)
            ranked = relevance.ranked(db, [sid], query, RANKED_FOR_NOTE)
            order = first(quoted, ranked)
            bodies = self._messages.bodies(db, order)
        missing = [i for i in order if i in bodies and growing_key(bodies[i]) not in present]
        room = budget - estimate_tokens(grown_by)
        chosen: list[int] = []
        for i in missing:
            if len(chosen) == RECALLED:
                break
            note = recall_note((j, bodies[j]) for j in sorted([*chosen, i]))
            if not chosen or (note is not None and estimate_tokens([note]) <= room):
                chosen.append(i)
        return recall_note((i, bodies[i]) for i in sorted(chosen))

    def _remember(
        self, sid: str, request: Messages, history: Messages, block: Message | None
    ) -> None:
        """Keep ``request`` as the session's last, for the next to grow from."""
        built = Built(
            request, len(history), history[-1] if history else None, str(block),
            self.compression_count,
        )  # fmt: skip
        with self._lock:
            _keep(self._built, sid, built)

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

    # ------------------------------------------------------------------ lifecycle

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
            self._selections.pop(sid, None)
            self._held.pop(sid, None)
            self._built.pop(sid, None)

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

    # ------------------------------------------------------------------ tools

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
        if not isinstance(args, dict):
            return tools.answer({"error": f"arguments of {name} must be a JSON object"})
        if name == "lcm_instructions":
            ledger = self.standing.of(sid)
            return tools.answer(
                {
                    "instructions": [i.text for i in ledger.instructions],
                    "left_out_for_room": ledger.dropped,
                }
            )
        try:
            with self.database.read() as db:
                if name == "lcm_grep":
                    return tools.answer(
                        tools.grep(db, args, sessions, self.database.fts, self.relevance)
                    )
                if name == "lcm_describe":
                    return tools.answer(tools.describe(db, args, sid, sessions))
                if name == "lcm_expand":
                    return tools.answer(tools.expand(db, args, sessions))
        except tools.ToolError as exc:
            return tools.answer({"error": f"{name}: {exc}"})
        return tools.answer({"error": f"Unknown context engine tool: {name}"})

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
            embeddings=self._embeddings_status(),
            summary_prepared=self.summaries.state(self._session),
            prepared_summaries_used=self.summaries.hits,
            summaries_not_ready=self.summaries.misses,
        )
        return status

    def _embeddings_status(self) -> dict[str, Any]:
        """Relevance by meaning: which model and why (or why none); with one, the store's
        messages and how many have their vectors, the backlog, the worker's rate and the
        time it needs for the backlog at that rate (None until it has a rate)."""
        shown: dict[str, Any] = {"model": self.embedding_model, "why": self.embedding_choice}
        if self._embedder is None:
            return shown
        with self.database.read() as db:
            stored, tried = vector_count(db, self._embedder.model)
        return shown | EmbeddingProgress(stored, tried, self._embedder.rate()).as_dict()

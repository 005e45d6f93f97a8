"""The request LCM hands the agent for a session's next model call, and what it remembers
to make the next one.

Between passes a request grows from the last one (:mod:`.growing`), with a note of the
stored originals a new ask needs; otherwise it is built anew from the store
(:mod:`.selection`), leaving room to grow into. The last request of each of the most
recently used :data:`KEPT_SELECTIONS` sessions is kept, so idle sessions cost no memory.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from hermes_core import (
    Message,
    Messages,
    StandingInstructions,
    copy_messages,
    estimate_tokens,
    role_of,
    text_of,
)
from hermes_engine_lcm.exact import first, holding
from hermes_engine_lcm.growing import HEADROOM, RECALLED, Built, grown, new_since, recall_note
from hermes_engine_lcm.growing import key as growing_key
from hermes_engine_lcm.relevance.ranking import Relevance
from hermes_engine_lcm.selection import Shares, build_request
from hermes_engine_lcm.store.cache import MessageCache
from hermes_engine_lcm.store.view import read_view

__all__ = [
    "KEPT_SELECTIONS",
    "RANKED_FOR_NOTE",
    "Ask",
    "Requests",
    "keep",
    "query_of",
    "turn_in_progress",
]

#: Sessions whose last request is kept for a repeated ask and for growing.
KEPT_SELECTIONS = 64
#: The ranked originals a grown request's new ask looks through for what it lacks.
RANKED_FOR_NOTE = 16


def keep(cache: OrderedDict[str, Any], sid: str, value: Any) -> None:
    """``value`` for session ``sid``, the most recent; past :data:`KEPT_SELECTIONS`
    sessions, the least recently used is forgotten (the caller holds the lock)."""
    cache[sid] = value
    cache.move_to_end(sid)
    while len(cache) > KEPT_SELECTIONS:
        cache.popitem(last=False)


def turn_in_progress(history: list[Any], incoming: Any) -> bool:
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


def query_of(history: Messages, incoming: Message | None) -> str:
    """What a request is asked about: the incoming message, or when a tool result came
    last (a turn's tool loop), the latest user message."""
    query = text_of(incoming) if incoming is not None else ""
    if not query.strip():
        query = next((text_of(m) for m in reversed(history) if role_of(m) == "user"), "")
    return query


@dataclass(frozen=True)
class Ask:
    """One request to make: for session ``sid``, the agent's ``history`` (ending with the
    ask), the text it asks about, and what the request must carry."""

    sid: str
    history: Messages
    query: str
    #: Whether the history ends with a new ask of the user's (a grown request's note).
    asked: bool
    budget: int
    #: The standing instructions' block the request carries, if any.
    block: Message | None
    #: The session's compactions so far (a pass builds the next request anew).
    compactions: int
    relevance: Relevance


class Requests:
    """Builds and remembers one engine's requests, for every session; thread-safe."""

    def __init__(self, database: Any, cache: MessageCache, shares: Shares, grow: bool) -> None:
        self.database = database
        self._cache = cache
        self._shares = shares
        self._grow = grow
        self._lock = threading.Lock()
        #: The last request built anew per session, for a repeated ask (retries).
        self._selections: OrderedDict[str, tuple[Any, Messages]] = OrderedDict()
        #: The last request per session and what it was made from: the next grows from it.
        self._built: OrderedDict[str, Built] = OrderedDict()

    def request(self, ask: Ask) -> Messages | None:
        """The request for ``ask`` (the agent's own copy), or None when not even the system
        prompt and the incoming turn fit."""
        with self._lock:
            built = self._built.get(ask.sid) if self._grow else None
        new = new_since(built, ask.history, str(ask.block), ask.compactions)
        if built is not None and new is not None:
            note = self._recalled(ask, built, new) if ask.asked and new else None
            request = grown(built, new, ask.budget, note)
            if request is not None:  # the last request and what is new: the same prefix
                self._remember(ask, request)
                return copy_messages(request)
        budget = ask.budget
        if built is not None:  # built anew: leave the turns after it room to grow into
            budget = int(budget * (1 - HEADROOM))
        budget -= estimate_tokens([ask.block]) if ask.block is not None else 0
        with read_view(self.database, ask.sid, self._cache) as view:
            items = view.active()
            key = (tuple((i.position, i.ref_id) for i in items), ask.query, budget, str(ask.block))
            with self._lock:
                cached = self._selections.get(ask.sid)
            if cached is not None and cached[0] == key:
                return copy_messages(cached[1])  # the agent may edit what it gets in place
            messages = build_request(view, items, ask.query, budget, self._shares, ask.relevance)
        if messages is None:
            return None
        messages = StandingInstructions.place(messages, ask.block)
        with self._lock:
            keep(self._selections, ask.sid, (key, messages))
        self._remember(ask, messages)
        return copy_messages(messages)

    def forget(self, sid: str) -> None:
        """Drop what is remembered of session ``sid``."""
        with self._lock:
            self._selections.pop(sid, None)
            self._built.pop(sid, None)

    def _recalled(self, ask: Ask, built: Built, new: Messages) -> Message | None:
        """The note of the stored originals most relevant to the ask that ``built``'s
        request with ``new`` appended would lack (:mod:`.growing`), those holding a term the
        ask quotes word for word first (:mod:`.exact`): the best of them, then the others
        while they fit the budget (a best one that does not fit has the request built
        anew); None when it lacks none."""
        grown_by = [*built.request, *new]
        present = {growing_key(m) for m in grown_by}
        with read_view(self.database, ask.sid, self._cache) as view:
            quoted = holding(view, ask.query)
            ranked = ask.relevance.ranked(view.db, [ask.sid], ask.query, RANKED_FOR_NOTE)
            order = first(quoted, ranked)
            bodies = view.bodies(order)
        missing = [i for i in order if i in bodies and growing_key(bodies[i]) not in present]
        room = ask.budget - estimate_tokens(grown_by)
        chosen: list[int] = []
        for i in missing:
            if len(chosen) == RECALLED:
                break
            note = recall_note((j, bodies[j]) for j in sorted([*chosen, i]))
            if not chosen or (note is not None and estimate_tokens([note]) <= room):
                chosen.append(i)
        return recall_note((i, bodies[i]) for i in sorted(chosen))

    def _remember(self, ask: Ask, request: Messages) -> None:
        """Keep ``request`` as the session's last, for the next to grow from."""
        history = ask.history
        last = history[-1] if history else None
        built = Built(request, len(history), last, str(ask.block), ask.compactions)
        with self._lock:
            keep(self._built, ask.sid, built)

"""Assembling a request from the store, within a token budget.

A request is the system prompt, then, in conversation order, the summaries
of the folded history and the stored originals most relevant to the incoming
message, then the fresh tail (the latest turns, ending with the incoming
message). The budget is shared out in that spirit:

* the system prompt and the fresh tail come first: the tail is the latest
  whole turns within ``tail_share`` of the budget (at least the incoming
  message's own turn);
* the summaries get up to ``summary_share`` of the budget, the most recent
  ones first; a summary whose every original is in the request already says
  nothing new and is left out;
* everything left goes to originals, whole tool groups at a time: first the
  most relevant to the incoming message (by the engine's relevance: stemmed
  keywords, and with embeddings their meaning as well, each ranking fused with
  the neighbourhoods of its hits: :mod:`~hermes_engine_lcm.neighbourhood`),
  the best of them with the turns right before and after each (a turn is
  understood with its neighbours: the question an answer replies to, the
  reply), then, while room is left, the most recent ones.

The request never exceeds the budget by the estimate the host and the
protocol use (characters / 4; each message also counts an envelope).
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from hermes_core import estimate_message_tokens, estimate_tokens
from hermes_engine_lcm.exact import holding
from hermes_engine_lcm.neighbourhood import by_neighbourhood, reach_of
from hermes_engine_lcm.relevance.ranking import KeywordRelevance, Relevance
from hermes_engine_lcm.render import summary_message
from hermes_engine_lcm.store.nodes import (
    Item,
    SummaryRow,
    load_messages,
    load_summaries,
)
from hermes_engine_lcm.store.protocol import Connection
from hermes_engine_lcm.store.records import MessageMeta
from hermes_engine_lcm.store.view import ReadView

__all__ = ["Shares", "active_messages", "build_request"]

#: Relevant candidates read from the index per request, whatever the room: their
#: neighbourhoods (:mod:`~hermes_engine_lcm.neighbourhood`) rank the turns around them, so
#: a deeper ranking helps a small request too (at B = 4,000 on the development split,
#: 0.811 with as many as the room holds twice over, 0.824 with 400).
RANKED_CANDIDATES = 400
#: The best ranked messages whose neighbourhoods join the ranking: each reads up to four
#: more candidates, and deeper hits' neighbours rank below what a request holds (on the
#: development split, 100, 200 and 400 scored within 0.005 of each other at every budget;
#: 400 doubled select_context's time at 100,000 stored messages).
NEIGHBOURHOOD_HITS = 200
#: Recent candidates read per request, at most.
RECENT_CANDIDATES = 2_000
#: How far a tool group may reach around one of its messages.
GROUP_REACH = 16
#: Neighbours of each candidate read with the candidates (longer groups are read on demand).
NEIGHBOURS = 4
#: Candidates in a row that no longer fit, after which the room counts as full.
MISSES = 64
#: Candidates whose neighbours are read together.
READ_AHEAD = 64


@dataclass(frozen=True)
class Shares:
    """How a request's budget is shared out (fractions of the budget)."""

    tail: float
    summaries: float
    #: The fresh tail's most messages (it always holds the incoming turn).
    tail_messages: int = 32


def _merged(entries: Iterable[SummaryRow | dict[str, Any]]) -> list[dict[str, Any]]:
    """Messages and summaries in order as chat messages; consecutive summaries share one."""
    out: list[dict[str, Any]] = []
    pending: list[SummaryRow] = []
    for entry in entries:
        if isinstance(entry, SummaryRow):
            pending.append(entry)
            continue
        if pending:
            out.append(summary_message(pending))
            pending = []
        out.append(entry)
    if pending:
        out.append(summary_message(pending))
    return out


def active_messages(db: Connection, items: Sequence[Item]) -> list[dict[str, Any]]:
    """The active context as chat messages; consecutive summaries share one message."""
    bodies = load_messages(db, [i.ref_id for i in items if i.kind == "message"])
    rows = load_summaries(db, [i.ref_id for i in items if i.kind == "summary"])
    return _merged(
        bodies[i.ref_id] if i.kind == "message" else rows[i.ref_id]
        for i in items
        if i.kind == "message" or i.ref_id in rows
    )


def _tail(messages: Sequence[MessageMeta], room: int, most: int) -> int:
    """Index of the first message of the fresh tail: the incoming turn (from the last user
    message on, whatever it costs), then earlier whole turns while they fit ``room`` tokens
    and ``most`` messages."""
    if not messages:
        return 0
    start = len(messages) - 1
    while start > 0 and messages[start].role != "user":
        start -= 1
    used = sum(m.tokens for m in messages[start:])
    while start > 0:
        first = start - 1
        while first > 0 and messages[first].role != "user":
            first -= 1
        cost = sum(m.tokens for m in messages[first:start])
        if used + cost > room or len(messages) - first > most:
            break
        used += cost
        start = first
    return start


def _group(
    view: ReadView,
    meta: MessageMeta,
    known: dict[int, MessageMeta],
    asked: set[int],
) -> list[MessageMeta]:
    """The whole tool group of a message (a call and its results), or the message alone.

    ``known`` maps seq to metadata already read, ``asked`` holds every seq already looked
    for (so one missing from ``known`` does not exist). A neighbour not looked for yet is
    read with the few around it (most tool groups are short); a longer group is read whole.
    """
    if meta.role not in ("tool", "assistant"):
        return [meta]

    def neighbour(seq: int) -> MessageMeta | None:
        if seq not in asked:
            window = range(seq - NEIGHBOURS, seq + NEIGHBOURS + 1)
            asked.update(window)
            known.update((m.seq, m) for m in view.at(window))
        return known.get(seq)

    group = [meta]
    while group[0].role == "tool":  # back to the call
        previous = neighbour(group[0].seq - 1)
        if previous is None:
            return [meta]
        group.insert(0, previous)
        if len(group) > GROUP_REACH:
            return [meta]
    while len(group) <= GROUP_REACH:  # on over its results
        following = neighbour(group[-1].seq + 1)
        if following is None or following.role != "tool":
            break
        group.append(following)
    if group[0].role != "assistant" and group[0].role != meta.role:
        return [meta]
    return group


def _read_at(view: ReadView, seqs: Iterable[int], id_at: dict[int, int]) -> None:
    """Add the messages at ``seqs`` that ``id_at`` (seq: id) does not hold yet, reading
    them from the store into ``id_at`` and into the view's cache (the packer then needs no
    second read of them by id)."""
    found = view.at(seq for seq in seqs if seq not in id_at)
    view.cache.add_meta(found)
    id_at.update((m.seq, m.id) for m in found)


def _neighbours(view: ReadView, best: Sequence[int], id_at: dict[int, int]) -> list[int]:
    """The messages right before and after each of ``best``, in ``best``'s order: a turn
    is understood with its neighbours (the question an answer replies to, the reply).
    ``id_at``: the session's messages by seq known so far (added to)."""
    meta = view.meta(best)
    wanted = [(meta[i].seq + step) for i in best if i in meta for step in (-1, 1)]
    _read_at(view, wanted, id_at)
    return [id_at[seq] for seq in wanted if seq in id_at]


def _with_neighbourhoods(
    view: ReadView, ranked: list[int], known: Iterable[MessageMeta]
) -> tuple[list[int], dict[int, int]]:
    """``ranked`` fused with the order of the turns around each ranked message
    (:mod:`~hermes_engine_lcm.neighbourhood`); and the session's messages by seq it knows.
    ``known``: messages of the session read already (the active ones)."""
    meta = view.meta(ranked)
    seq_of = {i: meta[i].seq for i in ranked[:NEIGHBOURHOOD_HITS] if i in meta}
    id_at = {m.seq: m.id for m in (*known, *meta.values())}
    # the active and the ranked messages near a hit are known already: read only the others
    _read_at(view, reach_of(list(seq_of.values())), id_at)
    return by_neighbourhood(ranked, seq_of, id_at), id_at


@dataclass(frozen=True)
class _Frame:
    """What every request holds: the system prompt (head) and the fresh tail."""

    raw: list[MessageMeta]
    head: list[MessageMeta]
    tail: list[MessageMeta]
    fixed: int
    tail_seq: int


def _frame(raw: list[MessageMeta], budget: int, shares: Shares) -> _Frame:
    first_turn = next((k for k, m in enumerate(raw) if m.role != "system"), len(raw))
    head = raw[:first_turn]
    body = raw[len(head) :]
    start = len(head) + _tail(body, int(budget * shares.tail), shares.tail_messages)
    tail = raw[start:]
    fixed = sum(m.tokens for m in head) + sum(m.tokens for m in tail)
    tail_seq = tail[0].seq if tail else (raw[-1].seq + 1 if raw else 0)
    return _Frame(raw, head, tail, fixed, tail_seq)


class _Packer:
    """Takes the originals most worth sending, best first, in whole tool groups, while they
    fit: the candidates (ranked, their neighbours, the recent), and what is known of the
    session's messages around them, read ahead in batches."""

    def __init__(self, view: ReadView, frame: _Frame, wanted: list[int]) -> None:
        self._view = view
        self._tail_seq = frame.tail_seq
        self._wanted = wanted
        self._pending = view.meta(wanted)
        self.known = {m.seq: m for m in self._pending.values()}
        self.known.update((m.seq, m) for m in frame.raw)
        self._asked = set(self.known)
        self.taken: set[int] = {m.id for m in frame.head} | {m.id for m in frame.tail}
        self.picked: list[MessageMeta] = []

    def _read_ahead(self, start: int) -> None:
        """Read the neighbours of the next candidates that may open or close a tool group,
        in one query, instead of one query each."""
        window: set[int] = set()
        for message_id in self._wanted[start : start + READ_AHEAD]:
            found = self._pending.get(message_id)
            if found is None:
                continue
            if found.role == "assistant":  # a result right after it, if it made calls
                window.add(found.seq + 1)
            elif found.role == "tool":  # the call is before it, more results may follow
                window.update(range(found.seq - NEIGHBOURS, found.seq + NEIGHBOURS + 1))
        window -= self._asked
        if window:
            self._asked.update(window)
            found_rows = self._view.at(sorted(window))
            self.known.update((m.seq, m) for m in found_rows)

    def _group_of(self, message_id: int) -> list[MessageMeta] | None:
        """The candidate with its tool group, less what is taken; None when it is no
        candidate here (unknown, taken, in the tail, a system prompt)."""
        found = self._pending.get(message_id)
        if found is None or found.id in self.taken or found.seq >= self._tail_seq:
            return None
        if found.role == "system":
            return None
        group = _group(self._view, found, self.known, self._asked)
        return [g for g in group if g.id not in self.taken]

    def pack(self, room: int) -> int:
        """Take candidates, best first, while they fit ``room``; what is left of it. Once
        ``MISSES`` candidates in a row no longer fit, the room is as good as full."""
        misses = 0
        for index, message_id in enumerate(self._wanted):
            if room <= 0 or misses >= MISSES:
                break
            if index % READ_AHEAD == 0:
                self._read_ahead(index)
            group = self._group_of(message_id)
            if group is None:
                continue
            cost = sum(g.tokens for g in group)
            if cost > room or any(g.seq >= self._tail_seq for g in group):
                misses += cost > room
                continue
            misses = 0
            self.picked.extend(group)
            self.taken.update(g.id for g in group)
            room -= cost
        return room


def _candidates(
    view: ReadView, frame: _Frame, query: str, budget: int, relevance: Relevance
) -> list[int]:
    """The originals worth sending, best first: those holding a term the query quotes word
    for word (:mod:`~hermes_engine_lcm.exact`), the most relevant with their neighbours,
    the rest of the relevant (each ranked with its neighbourhood), then the most recent;
    enough recent ones to fill the room twice over at this conversation's message size."""
    raw = frame.raw
    average = max(1, sum(m.tokens for m in raw) // max(1, len(raw)))
    enough = 64 + 2 * (budget - frame.fixed) // average
    ranked = relevance.ranked(view.db, [view.session_id], query, RANKED_CANDIDATES)
    ranked, id_at = _with_neighbourhoods(view, ranked, raw)
    recent = view.recent(frame.tail_seq, min(RECENT_CANDIDATES, enough))
    best = relevance.best
    around = _neighbours(view, ranked[:best], id_at)
    quoted = holding(view, query)
    return list(dict.fromkeys([*quoted, *ranked[:best], *around, *ranked[best:], *recent]))


def _new_summaries(
    summaries: list[SummaryRow], costs: dict[int, int], present: list[int], room: int
) -> tuple[list[SummaryRow], int]:
    """The summaries that say something the request does not already hold, the most recent
    first, while they fit ``room``; and what is left of it."""
    chosen: list[SummaryRow] = []
    for summary in reversed(summaries):
        # a summary covers one run of seqs: when all of them are present it says nothing new
        span = summary.last_seq - summary.first_seq + 1
        inside = bisect_right(present, summary.last_seq) - bisect_left(present, summary.first_seq)
        if inside >= span:
            continue
        cost = costs[summary.id]
        if cost <= room:
            chosen.append(summary)
            room -= cost
    return chosen, room


def _assembled(
    view: ReadView,
    frame: _Frame,
    picked: list[MessageMeta],
    chosen: list[SummaryRow],
    budget: int,
) -> list[dict[str, Any]]:
    """System prompt, summaries and picked originals in conversation order, then the tail."""
    head, tail = frame.head, frame.tail
    bodies = view.bodies([m.id for m in (*head, *picked, *tail)])
    ordered: list[tuple[int, int, SummaryRow | dict[str, Any]]] = [
        (m.seq, 1, bodies[m.id]) for m in picked
    ]
    ordered += [(s.first_seq, 0, s) for s in chosen]
    ordered.sort(key=lambda entry: (entry[0], entry[1]))
    request = [bodies[m.id] for m in head]
    request += _merged(entry for _, _, entry in ordered)
    request += [bodies[m.id] for m in tail]
    while estimate_tokens(request) > budget and len(request) > len(head) + len(tail):
        del request[len(head)]  # merged summary blocks may cost a little more than apart
    return request


def build_request(
    view: ReadView,
    items: Sequence[Item],
    query: str,
    budget: int,
    shares: Shares,
    relevance: Relevance | None = None,
) -> list[dict[str, Any]] | None:
    """The request for ``query`` within ``budget`` tokens, from the session ``view`` reads,
    or None when not even the system prompt and the incoming turn fit (the host then keeps
    the agent's own request). ``relevance`` ranks the stored originals (default: keywords).

    What the view reads goes through its cache, so the request shares its messages with
    the cache: the caller must copy it before handing it out.
    """
    meta = view.meta([i.ref_id for i in items if i.kind == "message"])
    raw = [meta[i.ref_id] for i in items if i.kind == "message" and i.ref_id in meta]
    frame = _frame(raw, budget, shares)
    if frame.fixed > budget:
        return None
    summary_ids = [item.ref_id for item in items if item.kind == "summary"]
    rows = view.summaries(summary_ids)
    summaries = [rows[i] for i in summary_ids if i in rows]
    costs = {s.id: estimate_message_tokens(summary_message([s])) for s in summaries}
    summary_room = min(int(budget * shares.summaries), sum(costs.values()))
    wanted = _candidates(view, frame, query, budget, relevance or KeywordRelevance())
    packer = _Packer(view, frame, wanted)
    room = packer.pack(budget - frame.fixed - summary_room) + summary_room
    present = sorted(m.seq for m in (*frame.head, *packer.picked, *frame.tail))
    chosen, room = _new_summaries(summaries, costs, present, room)
    packer.pack(room)  # what the summaries left goes to originals too
    return _assembled(view, frame, packer.picked, chosen, budget)

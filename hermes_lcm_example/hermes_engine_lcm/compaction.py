"""Compaction passes: fold the oldest raw messages into leaf summaries, and summaries upward.

Bounded by ``max_passes`` and a deadline. Each pass writes its summary and
prunes the active context in one transaction, after checking that the items
it summarised are still there, and commits nothing once the deadline has
passed (after a host timeout nothing a late pass does becomes visible).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

from hermes_core import LLM, FailureCooldown, estimate_message_tokens, get_logger
from hermes_engine_lcm.prepared import SummaryCache, cached_summary
from hermes_engine_lcm.render import render_turns
from hermes_engine_lcm.settings import LCMSettings
from hermes_engine_lcm.store.nodes import (
    Item,
    active_items,
    load_messages,
    load_summaries,
    next_summary_id,
    replace_with_summary,
    still_active,
)
from hermes_engine_lcm.store.protocol import Connection, StoreDatabase
from hermes_engine_lcm.store.records import MessageMeta, message_meta
from hermes_engine_lcm.summarizer import summarize

__all__ = ["CompactionReport", "compact", "fresh_tail", "prepare_leaves"]

logger = get_logger("hermes_core.engines.lcm")

#: Leaf chunks smaller than this are not worth a summary.
MIN_LEAF_TOKENS = 128


@dataclass(frozen=True)
class CompactionReport:
    passes: int
    before_tokens: int
    after_tokens: int
    tail_tokens: int
    stopped: str


@dataclass(frozen=True)
class _Plan:
    items: list[Item]
    depth: int
    text: str
    input_tokens: int
    first_seq: int
    last_seq: int
    first_at: float
    last_at: float
    covers: str


def _ranges(ids: Sequence[int]) -> str:
    parts: list[str] = []
    start = previous = ids[0]
    for value in ids[1:]:
        if value != previous + 1:
            parts.append(f"M{start}" if start == previous else f"M{start}-M{previous}")
            start = value
        previous = value
    parts.append(f"M{start}" if start == previous else f"M{start}-M{previous}")
    return ", ".join(parts)


def _meta_of(db: Connection, items: Sequence[Item]) -> dict[int, MessageMeta]:
    return message_meta(db, [i.ref_id for i in items if i.kind == "message"])


def fresh_tail(
    items: Sequence[Item], meta: dict[int, MessageMeta], count: int, max_tokens: int | None = None
) -> int:
    """Index of the first item of the fresh tail: the last raw messages, at most ``count`` of
    them and (after the first) at most ``max_tokens`` tokens in all, in whole tool groups;
    and never after the latest raw user message, however long the turn in progress is (a
    pass folds the past, never the ask the model is about to answer)."""
    seen = used = 0
    index = len(items)
    while index > 0 and seen < count and items[index - 1].kind == "message":
        cost = items[index - 1].tokens
        if seen and max_tokens is not None and used + cost > max_tokens:
            break
        index -= 1
        seen += 1
        used += cost
    while index > 0 and items[index].kind == "message" and meta[items[index].ref_id].role == "tool":
        index -= 1  # keep a tool call with its results
    ask = len(items)
    while ask > 0 and items[ask - 1].kind == "message":
        ask -= 1
        if meta[items[ask].ref_id].role == "user":
            return min(index, ask)  # the turn in progress stays whole
    return index


def _leaf_plan(
    db: Connection,
    items: list[Item],
    meta: dict[int, MessageMeta],
    tail: int,
    settings: LCMSettings,
) -> _Plan | None:
    """The oldest raw chunk before item ``tail`` (the start of the fresh tail), or None."""
    index = 0
    while index < tail:
        if items[index].kind != "message" or meta[items[index].ref_id].role == "system":
            index += 1
            continue
        chunk: list[Item] = []
        tokens = 0
        cursor = index
        while cursor < tail and items[cursor].kind == "message":
            role = meta[items[cursor].ref_id].role
            if role == "system":
                break
            group_end = cursor + 1
            while (
                group_end < tail
                and items[group_end].kind == "message"
                and meta[items[group_end].ref_id].role == "tool"
            ):
                group_end += 1
            if (
                group_end < len(items)
                and items[group_end].kind == "message"
                and (meta[items[group_end].ref_id].role == "tool")
            ):
                break  # the group runs into the fresh tail: leave it whole
            group_tokens = sum(i.tokens for i in items[cursor:group_end])
            if chunk and tokens + group_tokens > settings.leaf_chunk_tokens:
                break
            chunk.extend(items[cursor:group_end])
            tokens += group_tokens
            cursor = group_end
        if chunk and tokens >= MIN_LEAF_TOKENS:
            return _leaf_of(db, chunk, meta)
        index = max(cursor, index + 1)
    return None


def _leaf_of(db: Connection, chunk: list[Item], meta: dict[int, MessageMeta]) -> _Plan:
    """The fold of the raw messages ``chunk`` into one leaf summary."""
    ids = [i.ref_id for i in chunk]
    bodies = load_messages(db, ids)
    seqs = [meta[i].seq for i in ids]
    times = [meta[i].created_at for i in ids]
    return _Plan(
        items=chunk,
        depth=0,
        text=render_turns([bodies[i] for i in ids]),
        input_tokens=sum(i.tokens for i in chunk),
        first_seq=min(seqs),
        last_seq=max(seqs),
        first_at=min(times),
        last_at=max(times),
        covers=f"{_ranges(ids)} ({len(ids)} messages)",
    )


def _prepared_part(
    db: Connection, plan: _Plan, meta: dict[int, MessageMeta], cache: SummaryCache | None
) -> _Plan:
    """``plan``, or the start of it a summary was prepared for: a chunk the fresh tail cut
    short when it was prepared is longer now, and folding the prepared part needs no wait
    (the cache is still asked by text: a part whose messages changed is not ready)."""
    if cache is None or plan.depth != 0:
        return plan
    ids = [i.ref_id for i in plan.items]
    prepared = cache.chunk_from(ids[0])
    if prepared is None or len(prepared) >= len(ids) or ids[: len(prepared)] != prepared:
        return plan
    return _leaf_of(db, plan.items[: len(prepared)], meta)


def _condense_plan(db: Connection, items: list[Item], fanin: int) -> _Plan | None:
    """The first run of ``fanin`` consecutive summaries of one depth, as one plan."""
    summaries = load_summaries(db, [i.ref_id for i in items if i.kind == "summary"])
    for start in range(len(items) - fanin + 1):
        run = items[start : start + fanin]
        if any(i.kind != "summary" for i in run):
            continue
        rows = [summaries.get(i.ref_id) for i in run]
        if any(r is None for r in rows) or len({r.depth for r in rows if r}) != 1:
            continue
        nodes = [r for r in rows if r is not None]
        return _Plan(
            items=run,
            depth=nodes[0].depth + 1,
            text="\n\n".join(f"[S{r.id}] {r.text}" for r in nodes),
            input_tokens=sum(i.tokens for i in run),
            first_seq=min(r.first_seq for r in nodes),
            last_seq=max(r.last_seq for r in nodes),
            first_at=min(r.first_at for r in nodes),
            last_at=max(r.last_at for r in nodes),
            covers=", ".join(f"S{r.id}" for r in nodes) + f" (messages {nodes[0].first_seq}-"
            f"{nodes[-1].last_seq})",
        )
    return None


class _Late(Exception):
    """The deadline passed before the commit: roll the pass back."""


@dataclass(frozen=True)
class _State:
    """The active context as one pass sees it."""

    tokens: int
    tail_tokens: int
    plan: _Plan | None


def _read_state(
    database: StoreDatabase,
    session_id: str,
    settings: LCMSettings,
    target_tokens: int,
    fold: bool,
    tail_tokens: int | None,
    condense: bool = True,
    cache: SummaryCache | None = None,
) -> _State:
    """The context's size, its fresh tail's size, and (when ``fold`` and the context is over
    ``target_tokens``) the next fold, None when nothing is left to fold (with ``condense``
    false, only raw messages are folded)."""
    with database.read() as db:
        items = active_items(db, session_id)
        meta = _meta_of(db, items)
        start = fresh_tail(items, meta, settings.fresh_tail_messages, tail_tokens)
        tokens = sum(i.tokens for i in items)
        plan = None
        if fold and tokens > target_tokens:
            # leaves first; then condense, in runs of condensation_fanin, or of two when
            # the context is still over its target and nothing else is left to fold
            plan = _leaf_plan(db, items, meta, start, settings)
            if plan is not None:
                plan = _prepared_part(db, plan, meta, cache)
            if plan is None and condense:
                plan = _condense_plan(db, items, settings.condensation_fanin) or _condense_plan(
                    db, items, 2
                )
        return _State(tokens, sum(i.tokens for i in items[start:]), plan)


def _commit(
    database: StoreDatabase, session_id: str, plan: _Plan, text: str, level: str, deadline: float
) -> bool:
    """Replace the plan's items with its summary; False when the context changed under the
    pass (nothing written). Raises :class:`_Late` (rolled back) once ``deadline`` has passed."""
    with database.write(session_id) as db:
        if not still_active(db, session_id, plan.items):
            return False
        summary_id = next_summary_id(db)
        body = (
            f"{text}\n\nCovers {plan.covers}. "
            f'To read the originals: lcm_expand(id="S{summary_id}").'
        )
        if time.monotonic() >= deadline:
            raise _Late
        replace_with_summary(
            db,
            session_id,
            plan.items,
            depth=plan.depth,
            level=level,
            text=body,
            tokens=estimate_message_tokens({"content": body}),
            first_seq=plan.first_seq,
            last_seq=plan.last_seq,
            first_at=plan.first_at,
            last_at=plan.last_at,
            summary_id=summary_id,
        )
    return True


def compact(
    database: StoreDatabase,
    session_id: str,
    settings: LCMSettings,
    llm: LLM | None,
    target_tokens: int,
    deadline: float,
    cooldown: FailureCooldown | None = None,
    tail_tokens: int | None = None,
    summary_tokens: int | None = None,
    *,
    condense: bool = True,
    focus: str | None = None,
    cache: SummaryCache | None = None,
    ready_only_below: int | None = None,
) -> CompactionReport:
    """Run passes until the active context fits ``target_tokens`` or nothing is left to fold.

    The fresh tail, never folded, is at most ``settings.fresh_tail_messages`` messages and
    ``tail_tokens`` tokens; each summary is at most ``summary_tokens`` (and
    ``settings.summary_target_tokens``) tokens. With ``condense`` false only raw
    messages are folded (a manual pass: ``target_tokens`` 0 folds everything outside
    the fresh tail, once). ``focus`` asks the summariser to give most room to it.

    Summaries come from ``cache`` when it holds them (see :mod:`.prepared`); with
    ``ready_only_below``, a context at or under that many tokens is not folded further
    with a summary the cache lacks.

    ``stopped`` says why it ended: ``target``, ``max_passes``, ``deadline``
    (a pass past the deadline is rolled back), ``nothing_left``, ``not_ready``
    (the next summary was not prepared) or ``contended`` (the context kept changing
    under the passes).
    """
    passes = retries = 0
    before: int | None = None
    while True:
        fold = passes < settings.max_passes and time.monotonic() < deadline
        state = _read_state(
            database, session_id, settings, target_tokens, fold, tail_tokens, condense, cache
        )
        before = state.tokens if before is None else before
        if state.tokens <= target_tokens:
            stopped = "target"
        elif passes >= settings.max_passes:
            stopped = "max_passes"
        elif time.monotonic() >= deadline:
            stopped = "deadline"
        elif state.plan is None:
            stopped = "nothing_left"
        else:
            plan = state.plan
            cap, target, budget = _bounds(plan, settings, summary_tokens)
            ready_only = ready_only_below is not None and state.tokens <= ready_only_below
            made = cached_summary(
                cache, summarize, llm, plan.text, budget, target, cooldown, cap, focus, ready_only
            )
            if made is None:  # under the threshold: the next summary is not ready, no wait
                return CompactionReport(
                    passes, before, state.tokens, state.tail_tokens, "not_ready"
                )
            text, level = made
            try:
                committed = _commit(database, session_id, plan, text, level, deadline)
            except _Late:
                logger.warning("lcm.pass_rolled_back", session_id=session_id, reason="deadline")
                return CompactionReport(passes, before, state.tokens, state.tail_tokens, "deadline")
            if committed:
                passes += 1
                continue
            retries += 1  # the context changed under this pass; plan again
            if retries <= 3:
                continue
            stopped = "contended"
        return CompactionReport(passes, before, state.tokens, state.tail_tokens, stopped)


def _bounds(plan: _Plan, settings: LCMSettings, summary_tokens: int | None) -> tuple[int, int, int]:
    """A fold's summary bounds: its cap, its target and the budget it must stay under."""
    cap = min(settings.summary_target_tokens, summary_tokens or settings.summary_target_tokens)
    target = max(32, min(cap, plan.input_tokens // 4))
    # the footer naming what is covered costs about 40 tokens of the budget
    budget = max(16, plan.input_tokens - 40)
    return cap, target, budget


def _leaf_plans(
    database: StoreDatabase, session_id: str, settings: LCMSettings, tail_tokens: int | None
) -> list[_Plan]:
    """The leaf folds passes would make now, oldest first, as if each were committed (the
    last may be cut short by the fresh tail: a pass later folds that part of it)."""
    plans: list[_Plan] = []
    with database.read() as db:
        items = active_items(db, session_id)
        meta = _meta_of(db, items)
        tail = fresh_tail(items, meta, settings.fresh_tail_messages, tail_tokens)
        while len(plans) < settings.max_passes:
            plan = _leaf_plan(db, items, meta, tail, settings)
            if plan is None:
                break
            first = next(i for i, item in enumerate(items) if item is plan.items[0])
            end = first + len(plan.items)
            plans.append(plan)
            folded = Item(items[first].position, "summary", -len(plans), 0)
            items = [*items[:first], folded, *items[end:]]
            tail -= len(plan.items) - 1
    return plans


def prepare_leaves(
    database: StoreDatabase,
    session_id: str,
    settings: LCMSettings,
    llm: LLM,
    deadline: float,
    cache: SummaryCache,
    cooldown: FailureCooldown | None = None,
    tail_tokens: int | None = None,
    summary_tokens: int | None = None,
) -> int:
    """Summarise, into ``cache``, the leaf folds passes would make now (nothing is
    written to the store); how many summaries it made. Stops at ``deadline``, and at the
    first fold the LLM does not summarise (its cooldown, a failure)."""
    made = 0
    for plan in _leaf_plans(database, session_id, settings, tail_tokens):
        if time.monotonic() >= deadline or (cooldown is not None and cooldown.remaining()):
            break
        cap, target, budget = _bounds(plan, settings, summary_tokens)
        key = SummaryCache.key(plan.text, budget, target, cap, None)
        if cache.get(key) is not None:
            continue
        cache.remember_chunk([i.ref_id for i in plan.items])
        summary = summarize(llm, plan.text, budget, target, cooldown, deadline, cap_tokens=cap)
        if summary[1] == "truncated":
            break
        cache.put(key, summary)
        made += 1
    return made

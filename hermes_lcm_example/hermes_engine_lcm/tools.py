"""The retrieval tools: lcm_grep, lcm_describe, lcm_expand, and lcm_instructions. JSON in,
JSON out, never raising."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from hermes_core import CHARS_PER_TOKEN, text_of
from hermes_engine_lcm.errors import ToolError
from hermes_engine_lcm.relevance.ranking import Relevance, fuse
from hermes_engine_lcm.store.nodes import (
    active_items,
    covered_messages,
    covering_summaries,
    covering_summary,
    load_messages,
    load_summary,
    parse_id,
    summary_children,
)
from hermes_engine_lcm.store.protocol import Connection
from hermes_engine_lcm.store.records import (
    message_hits,
    message_meta,
    message_sizes,
    owner_of,
    session_totals,
)
from hermes_engine_lcm.store.search import search
from hermes_engine_lcm.store.search_rules import Hit

__all__ = ["SCHEMAS", "ToolError", "answer", "describe", "dispatch", "expand", "grep"]

MAX_QUERY_CHARS = 2_000

SCHEMAS: list[dict[str, Any]] = [
    {
        "name": "lcm_grep",
        "description": (
            "Search everything said earlier in this conversation, including what was folded "
            "into summaries. The query is plain text (no operators)."
        ),
        "parameters": {
            "type": "object",
            "properties": {
                "query": {"type": "string", "description": "Text to look for"},
                "limit": {"type": "integer", "minimum": 1, "maximum": 100, "default": 10},
                "scope": {"type": "string", "enum": ["messages", "summaries", "both"]},
                "sort": {"type": "string", "enum": ["relevance", "recency"]},
            },
            "required": ["query"],
        },
    },
    {
        "name": "lcm_describe",
        "description": (
            "Describe one node (M<id> for a message, S<id> for a summary), or without an id "
            "give an overview of this conversation's store and active context."
        ),
        "parameters": {
            "type": "object",
            "properties": {
                "id": {"type": "string", "description": "M12 or S3"},
                "max_tokens": {"type": "integer", "minimum": 100, "default": 4000},
                "page": {"type": "integer", "minimum": 0, "default": 0},
            },
        },
    },
    {
        "name": "lcm_expand",
        "description": (
            "Return the original messages under a summary (S<id>), or one message (M<id>), "
            "paged by a token cap: call again with next_page while it is not null."
        ),
        "parameters": {
            "type": "object",
            "properties": {
                "id": {"type": "string", "description": "S<id> of a summary or M<id>"},
                "max_tokens": {"type": "integer", "minimum": 100, "default": 4000},
                "page": {"type": "integer", "minimum": 0, "default": 0},
            },
            "required": ["id"],
        },
    },
    {
        "name": "lcm_instructions",
        "description": (
            "List the standing instructions the user gave for the rest of this conversation, "
            "as they are carried into every request (the user's own words)."
        ),
        "parameters": {"type": "object", "properties": {}},
    },
]


def _int(args: dict[str, Any], key: str, default: int, low: int, high: int) -> int:
    value = args.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ToolError(f"'{key}' must be a whole number from {low} to {high}, got {value!r}")
    return value


def _choice(args: dict[str, Any], key: str, default: str, options: Sequence[str]) -> str:
    value = args.get(key, default)
    if value not in options:
        raise ToolError(f"'{key}' must be one of {', '.join(options)}, got {value!r}")
    return str(value)


def _snippet(text: str, query: str, width: int = 160) -> str:
    lowered = text.lower()
    at = lowered.find(query.lower().strip())
    if at < 0:
        words = [w for w in query.lower().split() if w]
        at = min((lowered.find(w) for w in words if lowered.find(w) >= 0), default=0)
    start = max(0, at - width // 3)
    piece = text[start : start + width].replace("\n", " ")
    return ("..." if start else "") + piece + ("..." if start + width < len(text) else "")


def _fused_message_hits(
    db: Connection, hits: list[Hit], meaning: list[list[int]], limit: int
) -> list[Hit]:
    """The keyword hits and the messages closest in meaning (an order per view of a message),
    by reciprocal-rank fusion."""
    order = fuse([h.id for h in hits], *meaning)[:limit]
    found = {h.id: h for h in hits}
    found |= {h.id: h for h in message_hits(db, [i for i in order if i not in found])}
    return [found[i] for i in order if i in found]


def grep(
    db: Connection,
    args: dict[str, Any],
    sessions: list[str] | None,
    fts: bool,
    relevance: Relevance,
) -> dict[str, Any]:
    query = args.get("query")
    if not isinstance(query, str) or not query.strip():
        raise ToolError("'query' must be a non-empty string")
    if len(query) > MAX_QUERY_CHARS:
        raise ToolError(f"'query' is {len(query)} characters; at most {MAX_QUERY_CHARS}")
    limit = _int(args, "limit", 10, 1, 100)
    scope = _choice(args, "scope", "both", ("messages", "summaries", "both"))
    recency = _choice(args, "sort", "relevance", ("relevance", "recency")) == "recency"
    kinds = {"messages": ["message"], "summaries": ["summary"]}.get(scope, ["message", "summary"])
    hits = []
    for kind in kinds:
        found = search(db, kind, query, sessions, limit, recency, fts)
        by_meaning = kind == "message" and not recency  # recency sorts by time alone
        meaning = relevance.by_meaning(db, sessions, query, limit) if by_meaning else []
        hits += _fused_message_hits(db, found, meaning, limit) if meaning else found
    if recency:
        hits.sort(key=lambda h: h.order, reverse=True)
    results = []
    above_of = {
        kind: covering_summaries(db, kind, [h.id for h in hits[:limit] if h.kind == kind])
        for kind in ("message", "summary")
    }
    for hit in hits[:limit]:
        entry: dict[str, Any] = {
            "id": ("M" if hit.kind == "message" else "S") + str(hit.id),
            "snippet": _snippet(hit.text, query),
        }
        if sessions is None or len(sessions) > 1:
            entry["session_id"] = hit.session_id
        above = above_of[hit.kind].get(hit.id)
        if above is not None:
            entry["folded_into"] = f"S{above}"
        results.append(entry)
    return {"query": query, "results": results}


def _node(db: Connection, node_id: Any, sessions: list[str] | None) -> tuple[str, int, str]:
    parsed = parse_id(node_id)
    if parsed is None:
        raise ToolError(f"'id' must look like M12 or S3, got {node_id!r}")
    kind, number = parsed
    owner = owner_of(db, kind, number)
    if owner is None or (sessions is not None and owner not in sessions):
        raise ToolError(f"no node {node_id} in this conversation")
    return kind, number, owner


def describe(
    db: Connection, args: dict[str, Any], session_id: str, sessions: list[str] | None
) -> dict[str, Any]:
    node_id = args.get("id")
    max_tokens = _int(args, "max_tokens", 4_000, 100, 200_000)
    page = _int(args, "page", 0, 0, 1_000_000)
    if node_id in (None, ""):
        items = active_items(db, session_id)
        totals = session_totals(db, session_id)
        return {
            "session_id": session_id,
            "stored_messages": totals.stored_messages,
            "stored_tokens": totals.stored_tokens,
            "summaries_by_depth": {
                str(depth): count for depth, count in sorted(totals.summaries_by_depth.items())
            },
            "active_context": {
                "items": len(items),
                "tokens": sum(i.tokens for i in items),
                "summaries": [i.node_id for i in items if i.kind == "summary"],
                "raw_messages": sum(1 for i in items if i.kind == "message"),
            },
        }
    kind, number, owner = _node(db, node_id, sessions)
    above = covering_summary(db, kind, number)
    if kind == "message":
        meta = message_meta(db, [number])[number]
        paged = page_of_message(number, load_messages(db, [number])[number], max_tokens, page)
        return {
            "session_id": owner,
            "seq": meta.seq,
            "tokens": meta.tokens,
            "created_at": meta.created_at,
            "folded_into": f"S{above}" if above is not None else None,
            **paged,
            "role": meta.role,
        }
    summary = load_summary(db, number)
    assert summary is not None
    children = summary_children(db, number)
    return {
        "id": f"S{number}",
        "session_id": owner,
        "depth": summary.depth,
        "level": summary.level,
        "tokens": summary.tokens,
        "messages": [summary.first_seq, summary.last_seq],
        "time_range": [summary.first_at, summary.last_at],
        "covers": [("M" if k == "message" else "S") + str(i) for k, i in children],
        "folded_into": f"S{above}" if above is not None else None,
        "text": summary.text,
    }


def expand(db: Connection, args: dict[str, Any], sessions: list[str] | None) -> dict[str, Any]:
    kind, number, _ = _node(db, args.get("id"), sessions)
    max_tokens = _int(args, "max_tokens", 4_000, 100, 200_000)
    page = _int(args, "page", 0, 0, 1_000_000)
    if kind == "message":
        return page_of_message(number, load_messages(db, [number])[number], max_tokens, page)
    ids = covered_messages(db, number)
    # a page is measured in what it sends: each message's JSON and its entry around it
    room = max(1, max_tokens - _ENVELOPE_TOKENS) * CHARS_PER_TOKEN
    sizes = message_sizes(db, ids)
    tokens = {i: -(-(sizes[i] + _ENTRY_CHARS) // CHARS_PER_TOKEN) for i in ids}
    pages: list[list[int]] = [[]]
    used = 0
    for message_id in ids:
        cost = sizes[message_id] + _ENTRY_CHARS
        if pages[-1] and used + cost > room:
            pages.append([])
            used = 0
        pages[-1].append(message_id)
        used += cost
    if page >= len(pages):
        raise ToolError(f"page {page} does not exist; S{number} has {len(pages)} page(s)")
    bodies = load_messages(db, pages[page])
    shown = []
    for message_id in pages[page]:
        if tokens[message_id] > max_tokens:  # alone on its page, and still too large
            first = page_of_message(message_id, bodies[message_id], max_tokens, 0)
            if first["next_page"] is not None:
                first["note"] += f"; lcm_expand id=M{message_id} page=1 goes on"
            shown.append(first)
        else:
            shown.append({"id": f"M{message_id}", "message": bodies[message_id]})
    return {
        "id": f"S{number}",
        "page": page,
        "pages": len(pages),
        "next_page": page + 1 if page + 1 < len(pages) else None,
        "total_messages": len(ids),
        "messages": shown,
    }


#: What a paged answer's own fields may cost, kept out of each page's share.
_ENVELOPE_TOKENS = 60
#: Characters of one message's entry around its JSON (``{"id": "M123", "message": ...}, ``).
_ENTRY_CHARS = 32


def _message_text(message: dict[str, Any]) -> str:
    """All of a message a reader pages through: its text when that is all it holds (no tool
    calls, no part other than text), else its whole JSON."""
    content = message.get("content")
    text_only = isinstance(content, str) or (
        isinstance(content, list)
        and all(isinstance(p, dict) and isinstance(p.get("text"), str) for p in content)
    )
    if text_only and not message.get("tool_calls"):
        return text_of(message)
    return json.dumps(message, ensure_ascii=False)


def page_of_message(
    message_id: int, message: dict[str, Any], max_tokens: int, page: int
) -> dict[str, Any]:
    """Message ``message_id`` as one page of at most ``max_tokens`` tokens.

    A message that fits is returned whole (``pages`` 1). A larger one is cut
    into pages of its text: ``content_page`` holds page ``page``, and
    ``next_page`` says how to go on (None on the last page).
    """
    if len(json.dumps(message, ensure_ascii=False)) <= max_tokens * CHARS_PER_TOKEN:
        if page:
            raise ToolError(f"page {page} does not exist; M{message_id} has 1 page")
        return {
            "id": f"M{message_id}",
            "page": 0,
            "pages": 1,
            "next_page": None,
            "message": message,
        }
    text = _message_text(message)
    width = max(1, (max_tokens - _ENVELOPE_TOKENS) * CHARS_PER_TOKEN)
    pages = -(-len(text) // width)
    if page >= pages:
        raise ToolError(f"page {page} does not exist; M{message_id} has {pages} page(s)")
    return {
        "id": f"M{message_id}",
        "role": message.get("role"),
        "page": page,
        "pages": pages,
        "next_page": page + 1 if page + 1 < pages else None,
        "content_page": text[page * width : (page + 1) * width],
        "note": f"M{message_id} is larger than max_tokens: its text is split into {pages} pages",
    }


def answer(result: dict[str, Any]) -> str:
    return json.dumps(result, ensure_ascii=False)


def dispatch(
    name: str,
    args: Any,
    database: Any,
    sid: str,
    sessions: list[str] | None,
    relevance: Relevance,
    ledger: Any,
) -> str:
    """The answer of LCM's tool ``name`` to ``args``, for session ``sid`` searching
    ``sessions`` (None: every session), as the JSON text the model reads; a bad call is an
    answer naming what is wrong, never an exception."""
    if not isinstance(args, dict):
        return answer({"error": f"arguments of {name} must be a JSON object"})
    if name == "lcm_instructions":
        shown = [i.text for i in ledger.instructions]
        return answer({"instructions": shown, "left_out_for_room": ledger.dropped})
    try:
        with database.read() as db:
            if name == "lcm_grep":
                return answer(grep(db, args, sessions, database.fts, relevance))
            if name == "lcm_describe":
                return answer(describe(db, args, sid, sessions))
            if name == "lcm_expand":
                return answer(expand(db, args, sessions))
    except ToolError as exc:
        return answer({"error": f"{name}: {exc}"})
    return answer({"error": f"Unknown context engine tool: {name}"})

"""The conversation rebuilt from a Hermes store's rows, in the layouts Hermes writes: 0.19's
in-place compaction (old rows compacted, head and tail re-inserted around a summary that
may wrap a turn), 0.22's (the re-inserted tail's originals retired, copies stripped, a
flagged summary), rotation into a child session, and rewinds. The e2e suite checks the
same on stores Hermes' own AIAgent wrote (tests/e2e/test_hermes_store_replay.py)."""

from __future__ import annotations

import itertools
from typing import Any

from hermes_core.hermes_agent.sessions._summaries import is_summary
from hermes_core.hermes_agent.sessions._transcript import rebuild

SUMMARY_019 = (
    "[PRIOR CONTEXT — for reference only; not a new message]\n{turn}\n\n"
    "[END OF PRIOR CONTEXT — COMPACTION SUMMARY BELOW]\n\n[CONTEXT COMPACTION — REFERENCE "
    "ONLY] Earlier turns were compacted into the summary below."
)
_ids = itertools.count(1)


def row(
    message: dict[str, Any], active: int = 1, compacted: int = 0, **more: Any
) -> dict[str, Any]:
    return {
        "id": next(_ids),
        "role": message["role"],
        "content": message.get("content"),
        "tool_calls": more.pop("tool_calls", None),
        "tool_call_id": message.get("tool_call_id"),
        "tool_name": message.get("name"),
        "active": active,
        "compacted": compacted,
        **more,
    }


def turns(start: int, count: int) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for n in range(start, start + count):
        out += [
            {"role": "user", "content": f"Turn {n}: look at src/mod_{n}.py "},
            {"role": "assistant", "content": f"Answer {n}."},
        ]
    return out


def compact_019(live: list[dict[str, Any]], head: int, tail: int) -> list[dict[str, Any]]:
    """The rows 0.19's in-place compaction writes: the live rows become compacted, then
    head copies, a summary wrapping the turn before the tail, tail copies."""
    wrapped = {"role": "assistant", "content": SUMMARY_019.format(turn=live[-tail - 1]["content"])}
    return [*live[:head], wrapped, *live[-tail:]]


def test_in_place_compactions_of_0_19_rebuild_what_was_sent() -> None:
    sent = turns(0, 40)
    rows: list[dict[str, Any]] = []
    live = sent[:20]  # what the agent holds
    rows += [row(m) for m in live]
    for batch in (sent[20:50], sent[50:]):
        for stored in rows:  # compaction: every live row is archived as compacted
            if stored["active"]:
                stored.update(active=0, compacted=1)
        live = compact_019(live, head=3, tail=6)
        rows += [row(m) for m in live]
        live += batch
        rows += [row(m) for m in batch]
    rebuilt = rebuild(rows)
    assert rebuilt.messages == sent
    assert len(rebuilt.compactions) == 2 and rebuilt.rewound == 0


def test_in_place_compaction_of_0_22_with_retired_tail_and_stripped_copies() -> None:
    sent = turns(0, 30)
    first = [row(m, active=0, compacted=1) for m in sent[:14]]
    originals = [row(m, active=0, compacted=0) for m in sent[14:20]]  # retired: re-inserted
    head = [row(m, active=0, compacted=1) for m in sent[:3]]
    summary = row(
        {"role": "user", "content": "[CONTEXT COMPACTION — REFERENCE ONLY] ..."},
        active=1,
        _compressed_summary=1,
    )
    copies = [row({**m, "content": m["content"].strip()}) for m in sent[14:20]]
    later = [row(m) for m in sent[20:]]
    rebuilt = rebuild([*first, *originals, *head, summary, *copies, *later])
    assert rebuilt.messages == sent  # the originals, once, as sent (trailing space kept)
    assert rebuilt.copies == 9


def test_a_rewind_is_dropped_and_a_repeated_question_kept() -> None:
    sent = turns(0, 4)
    taken_back = [row(m, active=0, compacted=0) for m in turns(90, 1)]  # /undo
    again = [{"role": "user", "content": sent[0]["content"]}, {"role": "assistant", "content": "x"}]
    rows = [*(row(m) for m in sent), *taken_back, *(row(m) for m in again)]
    rebuilt = rebuild(rows)
    assert rebuilt.messages == [*sent, *again]  # said twice: a message of its own
    assert rebuilt.rewound == 2


def test_tool_calls_and_results_stay_paired() -> None:
    call = {
        "role": "assistant",
        "content": "",
        "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "read_file"}}],
    }
    result = {"role": "tool", "content": "file text", "tool_call_id": "c1", "name": "read_file"}
    sent = [*turns(0, 5), call, result, *turns(5, 5)]
    rows = [
        row(
            m,
            tool_calls='[{"id": "c1", "type": "function", "function": {"name": "read_file"}}]'
            if m is call
            else None,
        )
        for m in sent
    ]
    for stored in rows:
        stored.update(active=0, compacted=1)
    live = compact_019(sent, head=3, tail=8)  # the tail holds the call and its result
    rows += [row(m, tool_calls=rows[10]["tool_calls"] if m is call else None) for m in live]
    rebuilt = rebuild(rows)
    assert rebuilt.messages == sent
    pairs = [
        (m["tool_calls"][0]["id"], n) for n, m in enumerate(rebuilt.messages) if m.get("tool_calls")
    ]
    assert pairs == [("c1", 10)] and rebuilt.messages[11]["tool_call_id"] == "c1"


def test_a_rotation_chain_reads_as_one_conversation() -> None:
    sent = turns(0, 20)
    parent = [row(m) for m in sent[:12]]
    child_start = compact_019(sent[:12], head=3, tail=4)
    child = [row(m) for m in child_start] + [row(m) for m in sent[12:]]
    rebuilt = rebuild([*parent, *child])
    assert rebuilt.messages == sent and len(rebuilt.compactions) == 1


def test_summaries_are_recognised_in_every_form_and_nothing_else() -> None:
    assert is_summary({"content": "[CONTEXT SUMMARY]: older"})
    assert is_summary({"content": "[CONTEXT COMPACTION — REFERENCE ONLY] x"})
    assert is_summary({"content": SUMMARY_019.format(turn="t")})
    assert is_summary({"content": "anything", "_compressed_summary": 1})
    assert not is_summary({"content": "[PRIOR CONTEXT] my own note"})
    assert not is_summary({"content": "we talked about [CONTEXT SUMMARY]: it"})
    assert not is_summary({"content": None})

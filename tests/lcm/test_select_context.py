"""select_context: within the budget, the system prompt, summaries and the originals most
relevant to the incoming message in conversation order, then the fresh tail; stable."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from hermes_engine_lcm import LCMEngine
from hermes_engine_lcm.render import SUMMARY_PREFIX
from hermes_engine_lcm.selection import RANKED_CANDIDATES, RECENT_CANDIDATES

from hermes_core import validate_messages
from hermes_core._tokens import estimate_tokens
from hermes_core.testing._conversations import sample_conversation
from tests.lcm.requests import select


def exchanges(count: int, user: str, assistant: str) -> list[dict[str, Any]]:
    """``count`` user and assistant turns, ``{n}`` in each text standing for the turn's number."""
    return [
        message
        for n in range(count)
        for message in (
            {"role": "user", "content": user.format(n=n)},
            {"role": "assistant", "content": assistant.format(n=n)},
        )
    ]


FACT = "The deployment password hint is 'blue heron' (runbook)."
ASK = {"role": "user", "content": "Which hint did the runbook give for the deployment password?"}


def test_the_request_is_system_then_summaries_and_relevant_originals_in_order_then_the_tail(
    make_lcm: Callable[..., LCMEngine],
) -> None:
    engine = make_lcm(context_length=6_000)
    history = sample_conversation(30, facts={2: FACT})
    active = engine.compress(history)
    assert FACT not in str(active)  # folded away by the pass
    request = select(engine, active, ASK)
    assert validate_messages(request) == []
    assert estimate_tokens(request) <= 6_000
    assert request[0] == history[0] and request[-1] == ASK
    fact_at = next(i for i, m in enumerate(request) if m.get("content") == FACT)
    # the fresh tail: the latest turns of the history, verbatim, just before the ask
    assert request[-3:-1] == history[-2:]
    assert fact_at < len(request) - 3
    # everything between the system prompt and the tail is in conversation order
    order = [history.index(m) for m in request[1:-1] if m in history]
    assert order == sorted(order)
    assert any(str(m.get("content")).startswith(SUMMARY_PREFIX) for m in request)


def test_nothing_changed_gives_an_equal_list(make_lcm: Callable[..., LCMEngine]) -> None:
    engine = make_lcm(context_length=6_000)
    active = engine.compress(sample_conversation(30))
    first = select(engine, active, ASK)
    assert select(engine, active, ASK) == first
    later = {"role": "user", "content": "And what about file 3?"}
    assert select(engine, [*active, ASK, {"role": "assistant", "content": "heron"}], later) != first


@pytest.mark.parametrize("budget", [400, 1_000, 2_500, 6_000, 20_000])
def test_every_request_fits_its_budget_and_ends_with_the_incoming_turn(
    make_lcm: Callable[..., LCMEngine], budget: int
) -> None:
    engine = make_lcm(context_length=6_000)
    active = engine.compress(sample_conversation(30, facts={2: FACT}))
    request = select(engine, active, ASK, budget=budget)
    assert estimate_tokens(request) <= budget
    assert validate_messages(request) == []
    assert request[0]["role"] == "system" and request[-1] == ASK


def test_relevance_comes_before_recency_when_room_is_short(
    make_lcm: Callable[..., LCMEngine],
) -> None:
    engine = make_lcm(context_length=6_000)
    active = engine.compress(sample_conversation(30, facts={2: FACT}))
    request = select(engine, active, ASK, budget=1_000)
    assert FACT in [m.get("content") for m in request]


def test_a_fact_is_found_past_every_candidate_limit(make_lcm: Callable[..., LCMEngine]) -> None:
    turns = (RANKED_CANDIDATES + RECENT_CANDIDATES) // 4 + 50  # more messages than either list
    engine = make_lcm(context_length=8_000)
    history = sample_conversation(turns, facts={1: FACT})
    engine.on_turn_complete(history)
    request = select(engine, history, ASK, budget=4_000)
    assert FACT in [m.get("content") for m in request]
    assert estimate_tokens(request) <= 4_000


def test_the_most_relevant_turns_come_with_their_neighbours(
    make_lcm: Callable[..., LCMEngine],
) -> None:
    engine = make_lcm(context_length=8_000)
    history = sample_conversation(40)
    question = {"role": "user", "content": "Where does the staging database run?"}
    answer = {"role": "assistant", "content": "On kestrel-17, port 6543."}
    history[9:9] = [question, answer]  # the answer shares no word with a later ask
    engine.on_turn_complete(history)
    ask = {"role": "user", "content": "Remind me: which host runs the staging database?"}
    request = select(engine, history, ask, budget=1_500)
    contents = [m.get("content") for m in request]
    assert question["content"] in contents and answer["content"] in contents
    assert contents.index(answer["content"]) == contents.index(question["content"]) + 1


def test_the_requests_fresh_tail_takes_its_own_share_not_the_passes(
    make_lcm: Callable[..., LCMEngine],
) -> None:
    """The latest turns (chores, nothing to do with the ask) take request_tail_share of the
    budget, a tenth by default, whatever fresh_tail_share keeps out of a pass's summaries;
    the rest goes to the older turns the ask is about."""
    history: list[dict[str, Any]] = [
        {"role": "system", "content": "You are an agent."},
        *exchanges(
            150,
            "Note {n}: the runbook's deployment hint is heron {n}.",
            "Noted the deployment hint {n}.",
        ),
        # out of the notes' neighbourhood (which joins the ranking): the chores start apart
        *exchanges(2, "Okay, on to chores.", "Sure."),
        *exchanges(60, "Please water plant {n} today.", "Watered plant {n}."),
    ]

    def chores(**settings: Any) -> int:
        engine = make_lcm(context_length=100_000, fresh_tail_messages=500, **settings)
        engine.on_turn_complete(history)
        request = select(engine, history, ASK, budget=3_000)
        assert estimate_tokens(request) <= 3_000
        latest = [m for m in request[1:-1] if "plant" in str(m.get("content"))]
        assert latest == history[len(history) - len(latest) :]  # the latest turns, whole
        return estimate_tokens(latest)

    by_default = chores(fresh_tail_share=0.5)
    assert 0 < by_default <= 300
    wider = chores(fresh_tail_share=0.1, request_tail_share=0.4)
    assert 900 < wider <= 1_200


def test_the_latest_selection_is_kept_for_the_latest_kept_selections_sessions_only(
    make_lcm: Callable[..., LCMEngine], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each session's last request is kept to answer an unchanged one again; the sessions
    kept are bounded (here 3, through the constant), the least recently asked dropped."""
    from hermes_engine_lcm import requests as requests_module

    monkeypatch.setattr(requests_module, "KEPT_SELECTIONS", 3)
    engine = make_lcm()
    history = sample_conversation(10)
    for n in range(5):
        engine.on_turn_complete(history, session_id=f"s{n}")
        incoming = {"role": "user", "content": f"what of step {n}?"}
        engine.select_context(
            [*history, incoming],
            conversation_messages=history,
            incoming_message=incoming,
            budget_tokens=2_000,
            session_id=f"s{n}",
        )
    assert list(engine.requests._selections) == [engine._sid(f"s{n}") for n in (2, 3, 4)]


def test_the_turns_around_a_relevant_one_come_before_unrelated_ones(
    make_lcm: Callable[..., LCMEngine],
) -> None:
    """The follow-up two turns after the only keyword hit shares no word with the ask; it
    still comes before the recent turns about nothing the ask names."""
    history: list[dict[str, Any]] = [
        {"role": "system", "content": "You are an agent."},
        *exchanges(80, "Please water plant {n} today.", "Watered plant {n}."),
    ]
    follow_up = {"role": "user", "content": "Good. And the nightly copy?"}
    history[11:11] = [
        {"role": "user", "content": "Where does the staging database run?"},
        {"role": "assistant", "content": "On kestrel-17, port 6543."},
        follow_up,
        {"role": "assistant", "content": "It goes to kestrel-18 at 02:00."},
    ]
    engine = make_lcm(context_length=100_000)
    engine.on_turn_complete(history)
    ask = {"role": "user", "content": "Which host runs the staging database?"}
    request = select(engine, history, ask, budget=400)
    assert estimate_tokens(request) <= 400
    assert follow_up in request
    assert history[40] not in request  # an unrelated turn far from the hit and the tail


@pytest.mark.parametrize("compacted", [False, True], ids=["whole", "compacted"])
def test_a_request_reads_no_messages_metadata_twice(
    make_lcm: Callable[..., LCMEngine], monkeypatch: pytest.MonkeyPatch, compacted: bool
) -> None:
    """The turns around the hits (their neighbourhoods) are looked up by position: those
    the request knows already (the active ones) are not read again, and those read are not
    read again by id when the request is packed."""
    history: list[dict[str, Any]] = [
        {"role": "system", "content": "You are an agent."},
        *exchanges(150, "Please water plant {n} today.", "Watered plant {n}."),
    ]
    history[11:11] = [  # the one hit, early: folded away by a compaction
        {"role": "user", "content": "Where does the staging database run?"},
        {"role": "assistant", "content": "On kestrel-17, port 6543."},
    ]
    first = make_lcm(context_length=6_000 if compacted else 100_000)
    if compacted:
        history = first.compress(history)
        assert first.get_status()["summaries"] >= 1
    else:
        first.on_turn_complete(history)
    engine = make_lcm(context_length=100_000)  # on the same store, nothing read yet
    reads: list[int] = []
    opened = engine.database.read

    class Recording:
        def __init__(self, db: Any) -> None:
            self._db = db

        def __getattr__(self, name: str) -> Any:
            return getattr(self._db, name)

        def execute(self, sql: str, parameters: Any = ()) -> Any:
            rows = self._db.execute(sql, parameters)
            if "SELECT id, role, seq, tokens, created_at FROM messages" not in sql:
                return rows
            rows = list(rows)
            reads.extend(row[0] for row in rows)
            return rows

    @contextmanager
    def recorded() -> Iterator[Any]:
        with opened() as db:
            yield Recording(db)

    monkeypatch.setattr(engine.database, "read", recorded)
    ask = {"role": "user", "content": "Which host runs the staging database?"}
    request = select(engine, history, ask, budget=3_000)
    assert any("kestrel-17" in str(m.get("content")) for m in request)
    assert len(request) > 20 and reads
    assert len(reads) == len(set(reads))


def test_a_turns_user_message_handed_again_mid_tool_loop_is_not_asked_again(
    make_lcm: Callable[..., LCMEngine],
) -> None:
    """Hermes 0.22 hands the turn's user message as incoming_message at every call of a
    tool loop: the request must end with the latest tool result, or the model asks for the
    tool again (an endless loop)."""
    engine = make_lcm(context_length=8_000)
    ask = {"role": "user", "content": "Read src/mod_7.py and say what it does."}
    call = {"id": "c7", "type": "function", "function": {"name": "read_file", "arguments": "{}"}}
    history = [
        *sample_conversation(2),
        ask,
        {"role": "assistant", "content": None, "tool_calls": [call]},
        {"role": "tool", "tool_call_id": "c7", "content": "def handler_7(event): ..."},
    ]
    request = engine.select_context(
        history, conversation_messages=history, incoming_message=ask, budget_tokens=4_000
    )
    assert request is not None and request[-1]["role"] == "tool"
    assert sum(m == ask for m in request) == 1

"""Attacks through session ids: reading another session's data, ids a store cannot hold,
sessions that pile up in memory."""

from __future__ import annotations

import json
import tracemalloc
from collections.abc import Callable

import pytest

from hermes_core import ContextHost

PASSWORD = "hunter2-ALICE"

#: Ids a host may send that a store cannot keep as they are.
HOSTILE_IDS = ["", "nul\x00inside", "x" * 6_000, "lone \ud800 surrogate", "~sha256:" + "0" * 64]


def _grep(host: ContextHost, query: str, session_id: str | None = None) -> list[object]:
    answer = json.loads(host.handle_tool_call("lcm_grep", {"query": query}, session_id=session_id))
    results: list[object] = answer["results"]
    return results


def test_an_empty_session_id_is_a_session_of_its_own_and_reads_nothing_of_the_current(
    make_lcm_host: Callable[..., ContextHost],
) -> None:
    host = make_lcm_host()
    host.start_session("alice")
    host.turn_complete([{"role": "user", "content": f"my password is {PASSWORD}"}])
    assert _grep(host, "hunter2") != []  # alice's own search finds it
    assert _grep(host, "hunter2", session_id="") == []
    host.turn_complete([{"role": "user", "content": "anonymous zebra"}], session_id="")
    assert _grep(host, "zebra", session_id="") != []  # the anonymous turn is kept
    assert _grep(host, "zebra") == []  # and not in alice's


def test_a_session_id_that_is_not_a_string_is_refused_with_a_clear_error(
    make_lcm_host: Callable[..., ContextHost],
) -> None:
    host = make_lcm_host()
    with pytest.raises(TypeError, match="session_id must be a string"):
        host.turn_complete([{"role": "user", "content": "x"}], session_id=7)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "session_id", HOSTILE_IDS, ids=["empty", "nul", "6000", "surrogate", "digest"]
)
def test_every_string_is_a_session_id_the_store_keeps_apart(
    make_lcm_host: Callable[..., ContextHost], session_id: str
) -> None:
    host = make_lcm_host()
    host.start_session("other")
    host.turn_complete([{"role": "user", "content": "other's walrus"}])
    host.turn_complete([{"role": "user", "content": "hostile narwhal"}], session_id=session_id)
    host.turn_complete(
        [
            {"role": "user", "content": "hostile narwhal"},
            {"role": "assistant", "content": "second turn"},
        ],
        session_id=session_id,
    )
    assert host.status()["hook_failures"] == 0
    assert len(_grep(host, "narwhal", session_id=session_id)) == 1
    assert _grep(host, "walrus", session_id=session_id) == []
    assert _grep(host, "narwhal") == []
    assert _grep(host, "second", session_id=session_id) != []


def test_sessions_that_ended_leave_nothing_behind_in_memory(
    make_lcm_host: Callable[..., ContextHost],
) -> None:
    host = make_lcm_host()

    def one_session(n: int) -> None:
        history = [
            {"role": "system", "content": "agent"},
            {"role": "user", "content": f"session {n} asks about the weather " * 20},
            {"role": "assistant", "content": "sunny " * 50},
        ]
        incoming = {"role": "user", "content": "and tomorrow?"}
        host.start_session(f"s{n}")
        host.select_context(
            [*history, incoming],
            conversation_messages=history,
            incoming_message=incoming,
            budget_tokens=8_000,
        )
        host.end_session(f"s{n}", [*history, incoming])

    for n in range(100):  # caches of fixed size fill up first
        one_session(n)
    tracemalloc.start()
    try:
        before = tracemalloc.take_snapshot()
        for n in range(100, 400):
            one_session(n)
        after = tracemalloc.take_snapshot()
    finally:
        tracemalloc.stop()
    grown = sum(stat.size_diff for stat in after.compare_to(before, "filename"))
    # before the fix each ended session kept its last request (about 160 kB a session);
    # what grows now is the engine's message cache, bounded at 8,192 entries of a kind
    assert grown < 300 * 8_000, f"{grown} bytes kept by 300 ended sessions"


def test_the_unnamed_session_before_any_start_is_not_the_session_called_default(
    make_lcm_host: Callable[..., ContextHost],
) -> None:
    host = make_lcm_host()
    history = [{"role": "system", "content": "agent"}, {"role": "user", "content": PASSWORD}]
    host.turn_complete(history)  # no start_session yet
    host.compress(history, force=True)
    assert _grep(host, "hunter2") != []
    assert _grep(host, "hunter2", session_id="default") == []
    host.turn_complete([{"role": "user", "content": "named marmot"}], session_id="default")
    assert _grep(host, "marmot") == []
    assert _grep(host, "marmot", session_id="default") != []

"""LCM's prune below the threshold moves old tool results out of the request and keeps every
byte in its store (``lcm_expand`` returns them); its clone for another agent shares no
connection."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from hermes_engine_lcm import LCMEngine
from hermes_engine_lcm.pruning import STUB_PREFIX

from hermes_core import ContextHost
from hermes_core.testing._conversations import assistant_calls, tool_call, tool_result, user

PRUNING = {"proactive_prune_tokens": 5_000, "proactive_prune_min_result_chars": 4_000}


def output(n: int) -> str:
    return f"rows of table t{n}\n" + "".join(f"{n}-{i}: value {i * 7}\n" for i in range(400))


def conversation(start: int, count: int) -> list[dict[str, Any]]:
    messages: list[dict[str, Any]] = []
    for n in range(start, start + count):
        messages += [
            user(f"show table t{n}"),
            assistant_calls(tool_call(f"c{n}", "query", table=f"t{n}")),
            tool_result(f"c{n}", output(n)),
            {"role": "assistant", "content": f"t{n} has 400 rows"},
        ]
    return messages


def expand(host: ContextHost, message_id: str) -> str:
    result = json.loads(
        host.handle_tool_call("lcm_expand", {"id": message_id, "max_tokens": 100_000})
    )
    content: str = result["message"]["content"]
    return content


def test_old_tool_results_become_stubs_and_lcm_expand_returns_each_byte(
    make_lcm_host: Callable[..., ContextHost],
) -> None:
    host = make_lcm_host(compression=PRUNING, lcm={"fresh_tail_messages": 8})
    host.start_session("s1")
    messages = [{"role": "system", "content": "agent"}, *conversation(0, 6)]
    result, count = host.prune_tool_results(messages, 40_000)
    assert count == 4  # six results; the fresh tail (8 messages) holds the last two
    assert result[-8:] == messages[-8:]
    stubs = [m for m in result if str(m.get("content")).startswith(STUB_PREFIX)]
    assert len(stubs) == 4 and [m["tool_call_id"] for m in stubs] == ["c0", "c1", "c2", "c3"]
    for n, stub in enumerate(stubs):
        message_id = stub["content"][len(STUB_PREFIX) :].split(" ")[0]
        assert expand(host, message_id) == output(n)  # every byte, from the store


def test_the_next_turn_stores_only_what_is_new_and_never_a_stub(
    make_lcm_host: Callable[..., ContextHost],
) -> None:
    host = make_lcm_host(compression=PRUNING, lcm={"fresh_tail_messages": 8})
    host.start_session("s1")
    messages = [{"role": "system", "content": "agent"}, *conversation(0, 6)]
    pruned, _ = host.prune_tool_results(messages, 40_000)
    host.turn_complete(messages)  # stored before the prune too: nothing new
    stored = host.status()["stored_messages"]
    assert stored == len(messages)
    host.turn_complete([*pruned, *conversation(6, 1)])
    assert host.status()["stored_messages"] == stored + 4
    # a host that rebuilt its list (its head trimmed) is aligned with the store: what it
    # still holds, stubs included, is not stored again
    host.turn_complete([*pruned[8:], *conversation(6, 2)])
    assert host.status()["stored_messages"] == stored + 8


def test_lcm_never_prunes_unless_the_trigger_is_set(
    make_lcm_host: Callable[..., ContextHost],
) -> None:
    host = make_lcm_host()
    messages = [{"role": "system", "content": "agent"}, *conversation(0, 6)]
    result, count = host.prune_tool_results(messages, 40_000)
    assert result is messages and count == 0


def test_a_clone_for_another_agent_shares_the_store_but_no_connection(
    make_lcm: Callable[..., LCMEngine],
) -> None:
    engine = make_lcm(context_length=50_000)
    engine.on_session_start("s1")
    engine.on_turn_complete(conversation(0, 2))
    clone = engine.clone_for_agent()
    try:
        assert clone is not engine and clone.database is not engine.database
        assert clone.database.location == engine.database.location
        assert clone.context_length == engine.context_length == 50_000
        assert clone.threshold_tokens == engine.threshold_tokens
        clone.on_session_start("s1")
        assert clone.get_status()["stored_messages"] == 8  # the same store
        clone.close()  # its connections only
        assert engine.get_status()["stored_messages"] == 8
    finally:
        clone.close()

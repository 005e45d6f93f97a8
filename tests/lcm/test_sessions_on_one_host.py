"""One host, two interleaved conversations: nothing read or written across them (issue 10, 4)."""

from __future__ import annotations

import json
from pathlib import Path

from hermes_core import ContextHost
from tests.lcm.sql import sql


def test_two_interleaved_conversations_on_one_host_never_meet(tmp_path: Path) -> None:
    host = ContextHost.from_config(
        {"context": {"engine": "lcm"}}, env={"HERMES_HOME": str(tmp_path)}
    )
    host.update_model("model", 100_000)
    alice = [{"role": "system", "content": "agent"}]
    bob = [{"role": "system", "content": "agent"}]
    host.start_session("alice")
    host.start_session("bob")  # the last one started is the host's current session
    for n in range(5):
        alice += [
            {"role": "user", "content": f"my password is hunter2-ALICE ({n})"},
            {"role": "assistant", "content": "noted"},
        ]
        bob += [{"role": "user", "content": f"hello {n}"}, {"role": "assistant", "content": "hi"}]
        incoming = {"role": "user", "content": "what is my password"}
        request = host.select_context(
            [*alice, incoming],
            conversation_messages=alice,
            incoming_message=incoming,
            budget_tokens=100_000,
            session_id="alice",
        )
        assert all("hello" not in str(m.get("content")) for m in request)
        host.turn_complete(alice, None, session_id="alice")
        host.turn_complete(bob, None, session_id="bob")
    bobs = json.loads(host.handle_tool_call("lcm_grep", {"query": "hunter2"}, session_id="bob"))
    assert bobs["results"] == []
    current = json.loads(host.handle_tool_call("lcm_grep", {"query": "hunter2"}))  # bob's
    assert current["results"] == []
    alices = json.loads(host.handle_tool_call("lcm_grep", {"query": "hunter2"}, session_id="alice"))
    assert len(alices["results"]) == 5
    database = sql(host.engine)  # type: ignore[arg-type]
    rows = database.execute("SELECT session_id, body FROM messages").fetchall()
    assert sorted(s for s, body in rows if "hunter2" in body) == ["alice"] * 5
    assert sorted(s for s, body in rows if "hello" in body) == ["bob"] * 5
    assert {s for s, _ in rows} == {"alice", "bob"}
    host.reset_session(session_id="alice")  # bob's active context is untouched
    assert database.execute(
        "SELECT COUNT(*) FROM context_items WHERE session_id = 'bob'"
    ).fetchone()[0] == len(bob)
    host.close()

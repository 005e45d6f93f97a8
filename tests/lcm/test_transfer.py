"""``hermes-context lcm migrate``: a SQLite store moved to PostgreSQL, whole."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hermes_engine_lcm import LCMEngine
from hermes_engine_lcm.testing import PostgresServer

from hermes_core.cli import main
from hermes_core.testing._conversations import agent_turn, sample_conversation
from tests.lcm.sql import active, check_consistent, sql, stored

SESSIONS = {
    "alice": sample_conversation(80, facts={7: "The shed is painted blue."}),
    "bob": [
        {"role": "system", "content": "agent"},
        {"role": "user", "content": "東京の天気は晴れです with a NUL \x00 inside"},
        {"role": "assistant", "content": "了解しました"},
    ],
}


def sqlite_store(home: Path) -> Path:
    engine = LCMEngine({"lcm": {"fresh_tail_messages": 8, "leaf_chunk_tokens": 1_500}}, home)
    engine.update_model("model", 4_000)
    for session, history in SESSIONS.items():
        engine.on_turn_complete(history, session_id=session)
        engine.compress(history, session_id=session)
    engine.close()
    return home / "lcm" / "lcm.db"


def answers(engine: LCMEngine, session: str) -> dict[str, Any]:
    """What the tools and the store say of a session."""
    grep = engine.handle_tool_call("lcm_grep", {"query": "shed painted"}, session_id=session)
    cjk = engine.handle_tool_call("lcm_grep", {"query": "天気"}, session_id=session)
    overview = json.loads(engine.handle_tool_call("lcm_describe", {}, session_id=session))
    return {
        "stored": stored(engine, session),
        "active": [(i.position, i.kind, i.ref_id, i.tokens) for i in active(engine, session)],
        "grep": json.loads(grep)["results"],
        "cjk": json.loads(cjk)["results"],
        "overview": overview,
    }


def test_a_store_moved_to_postgresql_answers_as_it_did_and_goes_on(
    postgres_server: PostgresServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = sqlite_store(tmp_path)
    before = LCMEngine({}, tmp_path)
    expected = {session: answers(before, session) for session in SESSIONS}
    before.close()
    url = postgres_server.create_database()
    monkeypatch.setenv("HERMES_LCM_DATABASE_URL", url)  # the password stays off the command line
    assert main(["lcm", "migrate", "--from", str(source)]) == 0

    after = LCMEngine({}, tmp_path)  # the variable now puts the store on the server
    assert after.get_status()["backend"] == "postgresql"
    for session in SESSIONS:
        assert answers(after, session) == expected[session]
    assert stored(after, "bob")[1]["content"].endswith("NUL \x00 inside")  # bodies verbatim
    check_consistent(sql(after), sum(len(h) for h in SESSIONS.values()))
    # new messages and summaries get new ids: the sequences start past the copied ones
    history = [*SESSIONS["alice"], *agent_turn(80), *agent_turn(81)]
    after.update_model("model", 2_000)
    after.compress(history, session_id="alice")
    assert stored(after, "alice") == history
    check_consistent(sql(after), sum(len(h) for h in SESSIONS.values()) + 8)
    after.close()


def test_a_store_is_never_moved_into_a_database_that_holds_one(
    postgres_server: PostgresServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = sqlite_store(tmp_path)
    url = postgres_server.create_database()
    assert main(["lcm", "migrate", "--from", str(source), "--to", url]) == 0
    capsys.readouterr()
    assert main(["lcm", "migrate", "--from", str(source), "--to", url]) != 0
    err = capsys.readouterr().err
    assert "already holds a store" in err and postgres_server.password not in err
    engine = LCMEngine({"lcm": {"database_url": url}})
    assert stored(engine, "alice") == SESSIONS["alice"]  # once, not twice
    engine.close()


def test_migrate_without_a_target_says_how_to_name_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("HERMES_LCM_DATABASE_URL", raising=False)
    monkeypatch.setenv("HERMES_HOME", str(tmp_path))
    assert main(["lcm", "migrate"]) == 2
    assert "--to postgresql://" in capsys.readouterr().err

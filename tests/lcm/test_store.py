"""The store: file and pragmas, idempotent ingest, resuming after a restart, bad messages."""

from __future__ import annotations

import copy
import json
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hermes_engine_lcm import LCMEngine
from hermes_engine_lcm.render import is_lcm_summary

from hermes_core.testing import EventCapture
from hermes_core.testing._conversations import agent_turn, sample_conversation
from tests.lcm.sql import sql, stored


@pytest.mark.sqlite_only
def test_the_database_is_private_in_wal_mode_with_foreign_keys_and_migrations(
    make_lcm: Callable[..., LCMEngine], tmp_path: Path
) -> None:
    engine = make_lcm()
    path = tmp_path / "lcm" / "lcm.db"
    assert engine.database.location == str(path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    db = sql(engine)
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert db.execute("PRAGMA foreign_keys").fetchone()[0] == 1
    assert db.execute("PRAGMA busy_timeout").fetchone()[0] == 30_000
    assert db.execute("PRAGMA user_version").fetchone()[0] == 3  # core, full text, stemmed
    assert engine.database.fts


def test_the_same_history_handed_back_is_stored_once_in_order(
    make_lcm: Callable[..., LCMEngine],
) -> None:
    engine = make_lcm()
    history = sample_conversation(3)
    for _ in range(3):
        engine.on_turn_complete(copy.deepcopy(history))
    engine.select_context(history, conversation_messages=history, budget_tokens=10_000)
    assert stored(engine) == history
    history += agent_turn(3)
    engine.on_turn_complete(copy.deepcopy(history))
    assert stored(engine) == history


def test_repeated_identical_messages_are_kept_as_often_as_they_were_said(
    make_lcm: Callable[..., LCMEngine],
) -> None:
    engine = make_lcm()
    ok = {"role": "user", "content": "ok"}
    history = [ok, {"role": "assistant", "content": "sure"}, dict(ok)]
    engine.on_turn_complete(history)
    engine.on_turn_complete([*history, {"role": "assistant", "content": "sure"}, dict(ok)])
    assert [m["content"] for m in stored(engine)] == ["ok", "sure", "ok", "sure", "ok"]


def test_identical_turns_after_a_compaction_are_stored_as_often_as_said(
    make_lcm: Callable[..., LCMEngine],
) -> None:
    # The compacted context ends "ok"/"sure" and the next turn says "ok"/"sure"
    # again: the handed-back list extends what compress returned, so both
    # repeats are new even though the store's end looks the same; also
    # across a restart.
    def make() -> LCMEngine:
        return make_lcm(context_length=2_000, fresh_tail_messages=1, leaf_chunk_tokens=100)

    engine = make()
    history: list[dict[str, Any]] = [{"role": "system", "content": "system prompt"}]
    visible = list(history)
    for number in range(12):
        if number == 6:
            engine = make()  # a restarted process resumes from the database
        said = [
            {"role": "user", "content": "ok " * 100},
            {"role": "assistant", "content": "sure " * 100},
        ]
        history += said
        visible = engine.compress(visible + copy.deepcopy(said))
    assert any(is_lcm_summary(m) for m in visible)
    engine.on_turn_complete(visible)
    assert stored(engine) == history


def test_ingestion_continues_after_a_restart(make_lcm: Callable[..., LCMEngine]) -> None:
    first = make_lcm()
    first.on_session_start("s1")
    history = sample_conversation(4)
    first.on_turn_complete(history)
    first.database.close()
    second = make_lcm()  # a new process on the same database
    second.on_session_start("s1")
    history += agent_turn(4)
    second.on_turn_complete(history)
    assert stored(second, "s1") == history


def test_the_compacted_context_handed_back_adds_nothing(make_lcm: Callable[..., LCMEngine]) -> None:
    engine = make_lcm(context_length=8_000)
    history = sample_conversation(30)
    active = engine.compress(history)
    assert len(active) < len(history)
    engine.on_turn_complete(active)
    engine.compress(active)
    assert stored(engine) == history


@pytest.mark.parametrize(
    ("bad", "problem"),
    [
        ({"content": "no role"}, "no valid role"),
        ({"role": "user", "content": 42}, "content of type int"),
        ({"role": "assistant", "tool_calls": "nope"}, "tool_calls that are not a list"),
        ({"role": "assistant", "tool_calls": [1, 2]}, "tool_calls that are not a list"),
        ("just text", "not a message object"),
        ({"role": "user", "content": "x", "extra": float("nan")}, "not JSON-serialisable"),
    ],
)
def test_malformed_messages_are_skipped_by_name_and_nothing_half_stored(
    make_lcm: Callable[..., LCMEngine], logs: EventCapture, bad: Any, problem: str
) -> None:
    engine = make_lcm()
    good = [{"role": "user", "content": "fine"}, {"role": "assistant", "content": "fine too"}]
    engine.on_turn_complete([good[0], bad, good[1]])
    assert stored(engine) == good
    (event,) = logs.named("lcm.ingest_skipped")
    assert event["index"] == 1 and problem in event["problem"]
    db = sql(engine)
    assert db.execute("SELECT COUNT(*) FROM context_items").fetchone()[0] == 2


def test_reset_starts_a_fresh_active_context_and_keeps_the_history(
    make_lcm: Callable[..., LCMEngine],
) -> None:
    engine = make_lcm()
    engine.on_session_start("s1")
    engine.on_turn_complete(sample_conversation(5))
    engine.on_session_reset()
    assert engine.compress([{"role": "user", "content": "new start"}]) == [
        {"role": "user", "content": "new start"}
    ]
    assert len(stored(engine, "s1")) == len(sample_conversation(5)) + 1
    engine.on_session_reset()  # the new conversation repeats the old one's first turn
    engine.on_turn_complete(sample_conversation(1))
    assert stored(engine, "s1") == [
        *sample_conversation(5),
        {"role": "user", "content": "new start"},
        *sample_conversation(1),
    ]


@pytest.mark.sqlite_only
def test_without_fts5_search_still_works_through_a_scan(
    make_lcm: Callable[..., LCMEngine], monkeypatch: pytest.MonkeyPatch, logs: EventCapture
) -> None:
    import hermes_engine_lcm.store.sqlite.database as database

    monkeypatch.setattr(database, "fts5_available", lambda: False)
    monkeypatch.setattr(database, "_fts_warned", False)
    engine = make_lcm()
    assert engine.database.fts is False
    (event,) = logs.named("lcm.fts5_unavailable")
    assert "slower substring scan" in event["effect"]
    engine.on_turn_complete(sample_conversation(3, facts={1: "The vault code is 7741."}))
    found = json.loads(engine.handle_tool_call("lcm_grep", {"query": "vault code"}))
    assert [r["id"] for r in found["results"]] == ["M6"]


def test_a_bad_lcm_value_gets_its_default_and_a_warning_naming_the_real_file_and_line(
    tmp_path: Path, logs: EventCapture
) -> None:
    from hermes_core import ContextHost

    config = tmp_path / "agent.yaml"
    config.write_text("context:\n  engine: lcm\nlcm:\n  fresh_tail_messages: 0\n", encoding="utf-8")
    host = ContextHost.from_config(config, env={"HERMES_HOME": str(tmp_path)})
    assert host.engine_name == "lcm" and host.activation.fallback is None
    assert host.engine.settings.fresh_tail_messages == 32  # type: ignore[attr-defined]
    (event,) = logs.named("hermes_config.invalid")
    assert (event["file"], event["key"], event["line"]) == (
        str(config),
        "lcm.fresh_tail_messages",
        4,
    )
    assert (event["expected"], event["got"]) == ("a whole number, 1 or more", "0")
    host.close()


def test_in_strict_mode_a_bad_lcm_value_is_an_error_naming_the_file(tmp_path: Path) -> None:
    from hermes_core import ConfigError, ContextHost, HermesError

    config = tmp_path / "agent.yaml"
    config.write_text(
        "context:\n  engine: lcm\n  strict: true\nlcm:\n  condensation_fanin: 1\n",
        encoding="utf-8",
    )
    with pytest.raises(HermesError, match=rf"{config}:5: key 'lcm\.condensation_fanin'"):
        ContextHost.from_config(config, env={"HERMES_HOME": str(tmp_path)})
    with pytest.raises(ConfigError, match=r"key 'lcm\.fresh_tail_messages' expected a whole"):
        LCMEngine(
            {"context": {"strict": True}, "lcm": {"fresh_tail_messages": "lots"}},
            hermes_home=tmp_path,
        )


def test_a_message_has_one_fingerprint_however_it_is_reached() -> None:
    from hermes_engine_lcm.store.messages import fingerprint

    for message in (
        {"role": "user", "content": "plain"},
        {"role": "user", "content": "ls: \udcff.txt"},
        {"role": "user", "content": "日本語"},
        {"role": "tool", "tool_call_id": "c1", "content": "done"},
    ):
        reordered = dict(reversed(list(message.items())))
        bookkept = {**message, "timestamp": 1764600000.5, "_db_persisted": True}
        assert fingerprint(message) == fingerprint(reordered) == fingerprint(bookkept)
    assert fingerprint({"role": "user", "content": "a"}) != fingerprint(
        {"role": "user", "content": "b"}
    )
    assert fingerprint({"role": "user", "content": float("nan")})  # unencodable: still one


def test_a_store_of_the_previous_version_gains_the_stemmed_index_with_its_history(
    tmp_path: Path,
) -> None:
    import sqlite3

    engine = LCMEngine({}, hermes_home=tmp_path)
    engine.on_turn_complete(sample_conversation(5, facts={2: "We painted the shed blue."}))
    path = engine.database.location
    engine.close()
    with sqlite3.connect(path) as db:  # back to version 2: the unicode61 index only
        db.execute("DROP TABLE messages_stem")
        db.execute(
            "CREATE VIRTUAL TABLE messages_fts USING fts5(text, content='messages', "
            "content_rowid='id')"
        )
        db.execute("INSERT INTO messages_fts(messages_fts) VALUES ('rebuild')")
        db.execute("PRAGMA user_version = 2")
    reopened = LCMEngine({}, hermes_home=tmp_path)
    found = json.loads(reopened.handle_tool_call("lcm_grep", {"query": "painting the shed"}))
    assert found["results"] and "painted the shed" in found["results"][0]["snippet"]
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == 3
        tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert "messages_stem" in tables and "messages_fts" not in tables
    reopened.close()

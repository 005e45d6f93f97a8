"""Hermes' state.db, read and never written: while Hermes holds it open (WAL), after it
closed it, and with every profile; a version, file or session it cannot read is a clear
error naming the file and what to do."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from hermes_core.hermes_agent.sessions import SessionStoreError, list_sessions, session_rows

SCHEMA = """
CREATE TABLE schema_version (version INTEGER NOT NULL);
CREATE TABLE sessions (id TEXT PRIMARY KEY, source TEXT NOT NULL, model TEXT, title TEXT,
  parent_session_id TEXT, started_at REAL NOT NULL, end_reason TEXT,
  input_tokens INTEGER DEFAULT 0, output_tokens INTEGER DEFAULT 0);
CREATE TABLE messages (id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL,
  role TEXT NOT NULL, content TEXT, tool_call_id TEXT, tool_calls TEXT, tool_name TEXT,
  timestamp REAL NOT NULL, active INTEGER NOT NULL DEFAULT 1,
  compacted INTEGER NOT NULL DEFAULT 0);
"""


def make_store(path: Path, version: int = 22, journal: str = "WAL") -> sqlite3.Connection:
    """A store with Hermes' tables (the columns this reader uses), in WAL mode unless told
    (Hermes 0.22's ``database.journal_mode``), left open as a running Hermes holds it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    db = sqlite3.connect(path, isolation_level=None)
    db.execute(f"PRAGMA journal_mode={journal}")
    db.executescript(SCHEMA)
    db.execute("INSERT INTO schema_version VALUES (?)", (version,))
    db.execute("INSERT INTO sessions VALUES ('s1', 'cli', 'm', 'first', NULL, 1.0, NULL, 9, 3)")
    db.execute("INSERT INTO sessions VALUES ('s2', 'cli', 'm', 'rotated', 's1', 2.0, NULL, 0, 0)")
    db.execute("UPDATE sessions SET end_reason = 'compression' WHERE id = 's1'")
    for n, role in enumerate(["user", "assistant"] * 3):
        db.execute(
            "INSERT INTO messages (session_id, role, content, timestamp) VALUES (?, ?, ?, ?)",
            ("s1" if n < 4 else "s2", role, f"message {n}", float(n)),
        )
    return db


def snapshot(folder: Path) -> dict[str, tuple[int, bytes]]:
    return {
        p.name: (p.stat().st_mtime_ns, p.read_bytes())
        for p in folder.iterdir()
        if p.name.startswith("state.db") and not p.name.endswith("-shm")
    }


def test_a_store_hermes_holds_open_is_read_and_left_as_it_was(tmp_path: Path) -> None:
    writer = make_store(tmp_path / "state.db")
    try:
        assert (tmp_path / "state.db-wal").exists()  # Hermes is running
        before = snapshot(tmp_path)
        listed = list_sessions(tmp_path)
        chain, rows = session_rows(tmp_path / "state.db", "s2")
        assert snapshot(tmp_path) == before  # the file and its WAL: same bytes, same mtime
    finally:
        writer.close()
    assert [s.id for s in listed] == ["s2", "s1"]  # the latest first
    assert listed[1].compactions == 1 and listed[1].title == "first"  # ended by rotation
    assert chain == ["s1", "s2"] and [r["content"] for r in rows][-1] == "message 5"


def test_a_closed_store_leaves_no_files_behind(tmp_path: Path) -> None:
    make_store(tmp_path / "state.db").close()  # the last connection checkpoints the WAL
    before = sorted(p.name for p in tmp_path.iterdir())
    mtime = (tmp_path / "state.db").stat().st_mtime_ns
    assert len(list_sessions(tmp_path)) == 2
    assert sorted(p.name for p in tmp_path.iterdir()) == before  # no -wal, no -shm made
    assert (tmp_path / "state.db").stat().st_mtime_ns == mtime


def test_a_rollback_journal_store_hermes_is_writing_is_not_read_past_its_lock(
    tmp_path: Path,
) -> None:
    # database.journal_mode: delete leaves no -wal even while Hermes runs: the reader must
    # take SQLite's shared lock, not read the file as immutable past a writer mid-commit
    writer = make_store(tmp_path / "state.db", journal="DELETE")
    try:
        assert len(list_sessions(tmp_path)) == 2
        before = snapshot(tmp_path)
        writer.execute("BEGIN EXCLUSIVE")  # Hermes writing its pages into state.db
        writer.execute("DELETE FROM messages")
        with pytest.raises(SessionStoreError, match="locked by another process") as caught:
            list_sessions(tmp_path)
        assert str(tmp_path / "state.db") in str(caught.value)
        writer.execute("ROLLBACK")
        assert [s.messages for s in list_sessions(tmp_path)] == [2, 4]
        assert snapshot(tmp_path) == before  # nothing written, no journal left behind
    finally:
        writer.close()


def test_every_profile_is_listed(tmp_path: Path) -> None:
    make_store(tmp_path / "state.db").close()
    make_store(tmp_path / "profiles" / "work" / "state.db").close()
    profiles = sorted({s.profile for s in list_sessions(tmp_path)})
    assert profiles == ["default", "work"]


def test_an_unknown_version_is_refused_naming_file_and_what_to_do(tmp_path: Path) -> None:
    make_store(tmp_path / "state.db", version=40).close()
    with pytest.raises(SessionStoreError) as caught:
        list_sessions(tmp_path)
    said = str(caught.value)
    assert str(tmp_path / "state.db") in said and "schema version 40" in said
    assert "update hermes-context" in said


def test_a_file_that_is_no_store_and_a_missing_session_are_clear_errors(tmp_path: Path) -> None:
    (tmp_path / "state.db").write_bytes(b"not a database at all" * 100)
    with pytest.raises(SessionStoreError, match="not a Hermes session store") as caught:
        list_sessions(tmp_path)
    assert f'sqlite3 {tmp_path / "state.db"} "PRAGMA integrity_check"' in str(caught.value)
    (tmp_path / "state.db").unlink()
    half = sqlite3.connect(tmp_path / "state.db")  # the version, but not the tables
    half.executescript(
        "CREATE TABLE schema_version (version INTEGER); INSERT INTO schema_version VALUES (22);"
    )
    half.close()
    with pytest.raises(SessionStoreError, match="no such table: sessions") as caught:
        list_sessions(tmp_path)
    assert str(tmp_path / "state.db") in str(caught.value)
    (tmp_path / "state.db").unlink()
    make_store(tmp_path / "state.db").close()
    with pytest.raises(SessionStoreError, match=r"no session 'nope'.*hermes-context sessions"):
        session_rows(tmp_path / "state.db", "nope")

"""Hermes session stores under attack: rows of the wrong type, fields nested past any
decoder, a killed Hermes' WAL, titles that carry keys or terminal escapes. ``sessions`` and
``replay --hermes-session`` list the rest, write nothing beside the store, show no secret
and send nothing raw to the terminal."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from hermes_core.cli import main
from tests.attacks.test_config_cli import run
from tests.hermes_sessions.test_store import make_store

KEYS = {
    "OpenAI-shaped": "sk-proj-" + "Ab1Cd2Ef3Gh4" * 3,
    "Stripe": "sk_live_" + "Zy9Xw8Vu7Ts6" * 2,
}


def _add_turns(db: sqlite3.Connection, session: str, said: dict[int, str], count: int) -> None:
    for n in range(count):
        for role, text in (("user", said.get(n, f"step {n}")), ("assistant", f"ok {n}")):
            db.execute(
                "INSERT INTO messages (session_id, role, content, timestamp) VALUES (?, ?, ?, 0)",
                (session, role, text),
            )


@pytest.mark.parametrize(
    ("column", "value"),
    [
        ("started_at", "yesterday"),
        ("started_at", 1e300),
        ("input_tokens", "many"),
        ("output_tokens", "lots"),
    ],
)
def test_a_row_of_the_wrong_type_is_skipped_named_and_the_rest_listed(
    tmp_path: Path, column: str, value: object, capsys: pytest.CaptureFixture[str]
) -> None:
    db = make_store(tmp_path / "state.db")
    db.execute("INSERT INTO sessions (id, source, started_at) VALUES ('bad', 'cli', 3.0)")
    db.execute(f"UPDATE sessions SET {column} = ? WHERE id = 'bad'", (value,))
    db.close()
    assert main(["sessions", "--hermes-home", str(tmp_path), "--json"]) == 0
    said = capsys.readouterr()
    assert {s["id"] for s in json.loads(said.out)} == {"s1", "s2"}
    assert "skipped" in said.err and str(tmp_path / "state.db") in said.err
    assert "'bad'" in said.err and column in said.err


def test_a_field_nested_past_any_decoder_costs_its_row_only(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = make_store(tmp_path / "state.db")
    _add_turns(db, "s2", {}, 30)
    deep = "[" * 100_000 + "]" * 100_000
    db.execute(
        "INSERT INTO messages (session_id, role, content, tool_calls, timestamp) "
        "VALUES ('s2', 'assistant', ?, ?, 0)",
        ("[{" + deep[1:-1] + "}]", deep),
    )
    db.execute(
        "INSERT INTO messages (session_id, role, content, timestamp) VALUES ('s2', 'boss', 'x', 0)"
    )
    db.close()
    args = ["replay", "--hermes-session", "s2", "--hermes-home", str(tmp_path), "--json"]
    assert main([*args, "--engines", "compressor", "--context-length", "8000"]) == 0
    said = capsys.readouterr()
    assert json.loads(said.out)["sessions"][0]["messages"] >= 60
    assert "skipped 1 rows of session s2" in " ".join(said.err.split())


def test_a_killed_hermes_wal_is_read_and_nothing_is_written_beside_the_store(
    tmp_path: Path,
) -> None:
    store = tmp_path / "state.db"
    writer = make_store(store)
    writer.execute("PRAGMA wal_autocheckpoint = 0")
    _add_turns(writer, "s2", {}, 5)
    # a killed Hermes: its -wal stays, its -shm is gone with its memory
    (tmp_path / "copied.db").write_bytes(store.read_bytes())
    wal = (tmp_path / "state.db-wal").read_bytes()
    writer.close()
    for leftover in tmp_path.glob("state.db*"):
        leftover.unlink()
    (tmp_path / "copied.db").rename(store)
    (tmp_path / "state.db-wal").write_bytes(wal)
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    result = run("sessions", "--json", "--hermes-home", str(tmp_path), home=tmp_path)
    assert result.returncode == 0, result.stderr
    assert {s["id"] for s in json.loads(result.stdout)} == {"s1", "s2"}  # the WAL was read
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before  # no -shm made


@pytest.mark.parametrize("kind", KEYS)
def test_no_key_in_a_title_or_a_probe_reaches_the_output(tmp_path: Path, kind: str) -> None:
    key = KEYS[kind]
    db = make_store(tmp_path / "state.db")
    db.execute("UPDATE sessions SET title = ? WHERE id = 's2'", (f"deploy with {key}",))
    random_password = "Qw7Rt9Yp3Lk5Zx8Mn2Vb"  # a key of no shape any rule knows
    said = {1: f"the key is {key} and the pass {random_password}", 27: f"{key} {random_password}"}
    _add_turns(db, "s2", said, 30)
    db.close()
    for args in (
        ["sessions", "--json"],
        ["sessions"],
        ["replay", "--hermes-session", "s2", "--engines", "compressor"],
        ["replay", "--hermes-session", "s2", "--engines", "compressor", "--json"],
        ["replay", "--hermes-session", "s2", "--engines", "compressor", "--json", "--include-text"],
    ):
        result = run(*args, "--hermes-home", str(tmp_path), home=tmp_path)
        assert result.returncode == 0, result.stderr
        shown = result.stdout + result.stderr
        assert key not in shown and key[-12:] not in shown, args
        assert random_password not in shown, args


def test_terminal_escapes_in_a_title_or_model_are_shown_not_acted_on(tmp_path: Path) -> None:
    db = make_store(tmp_path / "state.db")
    db.execute(
        "UPDATE sessions SET title = ?, model = ? WHERE id = 's2'",
        ("\x1b]0;owned\x07\x1b[2Jtitle", "gpt\x1b[31m-red\u202e"),
    )
    db.close()
    result = run("sessions", "--hermes-home", str(tmp_path), home=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "\x1b" not in result.stdout and "\x07" not in result.stdout
    assert "\u202e" not in result.stdout
    assert "\\x1b]0;owned" in " ".join(result.stdout.split())


def test_a_lone_surrogate_in_a_replayed_file_is_printed_escaped(tmp_path: Path) -> None:
    conversation = tmp_path / "chat.jsonl"
    lines = [{"role": "assistant" if n % 2 else "user", "content": f"turn {n}"} for n in range(6)]
    lines.append({"role": "user", "content": "the vault code is \\ud800 ZEBRA-77"})
    conversation.write_text(
        "\n".join(json.dumps(line).replace("\\\\ud800", "\\ud800") for line in lines) + "\n",
        encoding="utf-8",
    )
    result = run(
        "replay", str(conversation), "--engine", "lcm", "--ask", "what was the vault code?",
        home=tmp_path, PYTHONIOENCODING="utf-8",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "ZEBRA-77" in result.stdout and "PYTHONIOENCODING" not in result.stderr

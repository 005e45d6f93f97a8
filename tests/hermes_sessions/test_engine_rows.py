"""Rows an engine wrote into a Hermes store (its summaries, its block of standing
instructions) are rebuilt as what they were: a compaction, never the user's turns, never a
probe. The rows are laid out as Hermes' ``archive_and_compact`` writes them (every live row
archived ``compacted=1``, the engine's answer inserted as the new live rows), from the
answers of our real engines; the e2e suite checks stores Hermes itself wrote."""

from __future__ import annotations

import itertools
import json
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hermes_engine_lcm import LCMEngine

from hermes_compressor import CompressorEngine
from hermes_core._tokens import estimate_tokens
from hermes_core.cli import main
from hermes_core.hermes_agent.sessions import list_sessions
from hermes_core.hermes_agent.sessions._probes import find_probes
from hermes_core.hermes_agent.sessions._transcript import rebuild
from tests.attacks.test_config_cli import run
from tests.hermes_sessions.test_store import SCHEMA

RULE = "From now on, answer in metric units."


def said(count: int) -> list[dict[str, Any]]:
    """A conversation whose user reuses, late, a path given early."""
    out: list[dict[str, Any]] = []
    for n in range(count):
        text = f"Turn {n}: the build step {n} ran for a while and printed its usual log. " * 3
        if n == 2:
            text = "Keep the report in /srv/reports/q3_final.md please. " + RULE
        if n == count - 2:
            text = "Where did I say the report goes, /srv/reports/q3_final.md?"
        out += [{"role": "user", "content": text}, {"role": "assistant", "content": f"Ok {n}."}]
    return out


def stored_by_hermes(
    engine: Any, conversation: list[dict[str, Any]]
) -> tuple[list[dict[str, Any]], int]:
    """The rows Hermes 0.19 stores while ``engine`` compacts the agent's history, and the
    passes made."""
    ids = itertools.count(1)
    rows: list[dict[str, Any]] = []
    live: list[dict[str, Any]] = []
    passes = 0

    def insert(message: dict[str, Any]) -> None:
        rows.append(
            {"id": next(ids), "role": message["role"], "content": message.get("content"),
             "tool_calls": None, "tool_call_id": None, "tool_name": None,
             "active": 1, "compacted": 0}
        )  # fmt: skip

    for message in conversation:
        live.append(message)
        insert(message)
        if message["role"] == "assistant" and estimate_tokens(live) > engine.threshold_tokens:
            compacted = engine.compress(list(live))
            if compacted is live or compacted == live:
                continue
            passes += 1
            for row in rows:  # archive_and_compact: every live row archived
                if row["active"]:
                    row.update(active=0, compacted=1)
            live = list(compacted)
            for kept in live:
                insert(kept)
    return rows, passes


def write_store(home: Path, rows: list[dict[str, Any]]) -> None:
    """``rows`` as session 's' of a store in ``home``."""
    db = sqlite3.connect(home / "state.db")
    db.executescript(SCHEMA)
    db.execute("INSERT INTO schema_version VALUES (22)")
    db.execute("INSERT INTO sessions (id, source, model, started_at) VALUES ('s', 'cli', 'm', 1)")
    for row in rows:
        db.execute(
            "INSERT INTO messages (id, session_id, role, content, timestamp, active, compacted)"
            " VALUES (?, 's', ?, ?, 0, ?, ?)",
            (row["id"], row["role"], row["content"], row["active"], row["compacted"]),
        )
    db.commit()
    db.close()


@pytest.fixture(params=["lcm", "compressor"])
def engine(request: pytest.FixtureRequest, make_lcm: Callable[..., LCMEngine]) -> Any:
    if request.param == "lcm":
        return make_lcm(context_length=3_000)
    compressor = CompressorEngine({"compression": {"protect_first_n": 1, "protect_last_n": 4}})
    compressor.update_model("m", 3_000)
    return compressor


def test_an_engines_rows_are_a_compaction_never_the_conversation(engine: Any) -> None:
    conversation = said(60)
    rows, passes = stored_by_hermes(engine, conversation)
    assert passes >= 2
    rebuilt = rebuild(rows)
    assert rebuilt.messages == conversation  # as said: no summary, no block, no copy
    assert len(rebuilt.compactions) == passes
    probes = find_probes(rebuilt.messages)
    tokens = {p.token for p in probes if p.kind == "rare_token"}
    assert tokens == {"/srv/reports/q3_final.md"}


def test_sessions_and_replay_count_the_passes_the_engine_made(
    engine: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rows, passes = stored_by_hermes(engine, said(60))
    write_store(tmp_path, rows)
    (session,) = list_sessions(tmp_path)
    assert session.compactions == passes
    args = ["replay", "--hermes-session", "s", "--hermes-home", str(tmp_path), "--json"]
    outputs = []
    for _ in range(2):
        assert main([*args, "--engines", "compressor", "--context-length", "3000"]) == 0
        outputs.append(capsys.readouterr().out)
    assert outputs[0] == outputs[1]  # the same store, the same bytes
    report = json.loads(outputs[0])["sessions"][0]
    assert report["hermes"]["compactions"] == passes
    assert report["messages"] == 120


def test_replay_is_byte_identical_whatever_the_hash_seed_and_names_what_was_lost(
    make_lcm: Callable[..., LCMEngine], tmp_path: Path
) -> None:
    rows, _ = stored_by_hermes(make_lcm(context_length=3_000), said(60))
    write_store(tmp_path, rows)
    outputs = [
        run(
            "replay", "--hermes-session", "s", "--hermes-home", str(tmp_path), "--json",
            "--engines", "compressor,lcm", "--context-length", "3000",
            home=tmp_path, PYTHONHASHSEED=seed,
        ).stdout
        for seed in ("1", "2")
    ]  # fmt: skip
    assert outputs[0] == outputs[1] and outputs[0]
    report = json.loads(outputs[0])["sessions"][0]
    for probe in report["probes"]:
        lost = {engine for engine, held in probe["held"].items() if held is False}
        assert set(probe["fell_out_after_pass"]) == lost

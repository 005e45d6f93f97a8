"""Many workers, one PostgreSQL store: migrations, concurrent writers, kills, secrets."""

from __future__ import annotations

import json
import logging
import multiprocessing
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from hermes_engine_lcm import LCMEngine
from hermes_engine_lcm.store.postgres.schema import MIGRATIONS
from hermes_engine_lcm.testing import PostgresServer

from hermes_core.testing import EventCapture
from hermes_core.testing._conversations import agent_turn, sample_conversation
from tests.lcm.sql import check_consistent, sql, stored


def _start(url: str, barrier: Any, errors: Any) -> None:
    """A gateway worker starting up: it opens the store (and migrates it) with the others."""
    barrier.wait()
    try:
        LCMEngine({"lcm": {"database_url": url}}).close()
    except Exception as exc:
        errors.put(repr(exc))


def test_ten_workers_starting_together_apply_each_migration_once(
    postgres_server: PostgresServer,
) -> None:
    url = postgres_server.create_database()
    context = multiprocessing.get_context("spawn")
    barrier, errors = context.Barrier(10), context.Queue()
    workers = [context.Process(target=_start, args=(url, barrier, errors)) for _ in range(10)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(timeout=120)
        assert worker.exitcode == 0
    assert errors.empty()
    dbname = url.rsplit("/", 1)[1]
    assert postgres_server.sql(dbname, "SELECT version FROM lcm_schema") == [(len(MIGRATIONS),)]
    tables = postgres_server.sql(
        dbname, "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'"
    )
    assert tables == [(8,)]  # lcm_schema, lcm_meta, embeddings and the five tables, once


def _worker(url: str, number: int, barrier: Any, turns: int) -> None:
    """One of eight workers: its own sessions, and the shared one every worker appends to."""
    engine = LCMEngine({"lcm": {"database_url": url, "pool_size": 2}})
    engine.update_model("model", 1_000_000)
    own = sample_conversation(turns, facts={3: f"worker {number} keeps its own notes"})
    shared = sample_conversation(turns)
    barrier.wait()
    for end in range(1, len(shared) + 1, 1 + number % 3):  # each at its own pace
        engine.on_turn_complete(own[:end], session_id=f"own-{number}")
        engine.on_turn_complete(shared[:end], session_id="shared")
    engine.on_turn_complete(own, session_id=f"own-{number}")
    engine.on_turn_complete(shared, session_id="shared")
    engine.close()


def test_eight_processes_appending_to_their_sessions_and_one_shared_lose_and_repeat_nothing(
    postgres_server: PostgresServer,
) -> None:
    url = postgres_server.create_database()
    LCMEngine({"lcm": {"database_url": url}}).close()
    context = multiprocessing.get_context("spawn")
    barrier = context.Barrier(8)
    workers = [
        context.Process(target=_worker, args=(url, number, barrier, 30)) for number in range(8)
    ]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(timeout=300)
        assert worker.exitcode == 0
    engine = LCMEngine({"lcm": {"database_url": url}})
    try:
        assert stored(engine, "shared") == sample_conversation(30)  # each message once, in order
        for number in range(8):
            own = sample_conversation(30, facts={3: f"worker {number} keeps its own notes"})
            assert stored(engine, f"own-{number}") == own
        found = json.loads(
            engine.handle_tool_call("lcm_grep", {"query": "own notes"}, session_id="own-3")
        )
        assert [r["snippet"] for r in found["results"]] == ["worker 3 keeps its own notes"]
    finally:
        engine.close()


COMPACTING_CHILD = r"""
import sys, time
from hermes_engine_lcm import LCMEngine

class SlowLLM:
    def complete(self, messages, max_tokens=None):
        time.sleep(0.02)
        class Answer: text = "summary of those turns"
        return Answer()

settings = {"database_url": sys.argv[1], "fresh_tail_messages": 4, "leaf_chunk_tokens": 200,
            "max_passes": 10_000, "deadline_seconds": 600}
engine = LCMEngine({"lcm": settings}, llm=SlowLLM())
engine.update_model("m", 400)
print("ready", flush=True)
while True:
    engine.compress([], deadline=None)
"""


def _compactor(url: str) -> subprocess.Popen[str]:
    root = Path(__file__).parents[2]
    child = subprocess.Popen(
        [sys.executable, "-c", COMPACTING_CHILD, url],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(root)},
    )
    assert child.stdout is not None
    assert child.stdout.readline().strip() == "ready", child.stderr and child.stderr.read()
    return child


def _summaries(engine: LCMEngine) -> int:
    return int(sql(engine).execute("SELECT COUNT(*) FROM summaries").fetchone()[0])


def test_one_worker_compacting_while_another_ingests_loses_nothing(
    postgres_server: PostgresServer,
) -> None:
    url = postgres_server.create_database()
    engine = LCMEngine({"lcm": {"database_url": url}})
    engine.update_model("model", 1_000_000)
    history = sample_conversation(20)
    engine.on_turn_complete(history)
    child = _compactor(url)  # folds the session over and over in another process
    try:
        for turn in range(20, 120):
            history = [*history, *agent_turn(turn)]
            engine.on_turn_complete(history)
        while _summaries(engine) < 10:  # it has folded under the ingest's feet
            assert child.poll() is None, child.stderr and child.stderr.read()
            time.sleep(0.05)
    finally:
        child.kill()
        child.wait()
    assert stored(engine) == history
    check_consistent(sql(engine), len(history))
    engine.close()


@pytest.mark.parametrize("delay", [0.0, 0.15, 0.6])
def test_a_worker_killed_mid_compaction_leaves_a_store_the_next_one_carries_on_with(
    postgres_server: PostgresServer, delay: float
) -> None:
    url = postgres_server.create_database()
    engine = LCMEngine({"lcm": {"database_url": url}})
    engine.update_model("model", 1_000_000)
    history = sample_conversation(150)
    engine.on_turn_complete(history)
    child = _compactor(url)
    try:
        while _summaries(engine) == 0:  # compaction has begun: kill at some point in it
            assert child.poll() is None, child.stderr and child.stderr.read()
            time.sleep(0.01)
        time.sleep(delay)
    finally:
        os.kill(child.pid, signal.SIGKILL)
        child.wait()
    check_consistent(sql(engine), len(history))
    engine.update_model("model", 2_000)
    history = [*history, *agent_turn(150)]
    active = engine.compress(history)  # the next worker ingests and compacts on
    assert active and stored(engine) == history
    check_consistent(sql(engine), len(history))
    engine.close()


def test_the_password_is_in_no_status_event_or_error(
    postgres_server: PostgresServer,
    logs: EventCapture,
    caplog: pytest.LogCaptureFixture,
    tmp_path: Path,
) -> None:
    caplog.set_level(logging.DEBUG)
    password = postgres_server.password
    url = postgres_server.create_database()
    os.environ["HERMES_TEST_LCM_URL"] = url
    try:
        engine = LCMEngine({"lcm": {"database_url_env": "HERMES_TEST_LCM_URL"}})
    finally:
        del os.environ["HERMES_TEST_LCM_URL"]
    status = engine.get_status()
    assert status["backend"] == "postgresql"
    assert (
        status["database"]
        == f"postgresql://postgres@127.0.0.1:{postgres_server.port}/" + (url.rsplit("/", 1)[1])
    )
    engine.close()
    # a URL written in config.yaml works, and is warned about without its password
    LCMEngine({"lcm": {"database_url": url}}).close()
    (warning,) = logs.named("lcm.password_in_config")
    assert "HERMES_LCM_DATABASE_URL" in warning["hint"]
    # a wrong password, and a URL of another scheme, fail or warn without the password
    wrong = url.replace(password, "not-" + password)
    with pytest.raises(RuntimeError) as refused:
        LCMEngine({"lcm": {"database_url": wrong}})
    assert "password authentication failed" in str(refused.value)
    bad_scheme = url.replace("postgresql://", "mysql://")
    fallback = LCMEngine({"lcm": {"database_url": bad_scheme}}, hermes_home=tmp_path)
    assert fallback.get_status()["backend"] == "sqlite"  # the default applies, as for any key
    fallback.close()
    (problem,) = logs.named("hermes_config.invalid")
    assert problem["key"] == "lcm.database_url" and "mysql://" in problem["got"]
    everything = json.dumps([status, logs.entries, str(refused.value)], default=str)
    everything += caplog.text
    assert password not in everything


def _in_background(work: Any) -> tuple[threading.Thread, threading.Event]:
    done = threading.Event()

    def run() -> None:
        work()
        done.set()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread, done


def test_a_session_lock_holds_back_that_session_writers_and_no_other(
    postgres_server: PostgresServer,
) -> None:
    url = postgres_server.create_database()
    holder, writer = (LCMEngine({"lcm": {"database_url": url}}) for _ in range(2))
    alice, bob = sample_conversation(3), sample_conversation(4)
    held, release = threading.Event(), threading.Event()

    def hold_alice() -> None:
        with holder.database.write("alice") as db:
            db.execute("SELECT 1").fetchone()  # the pipeline has run: the lock is taken
            held.set()
            release.wait()

    holding, _ = _in_background(hold_alice)
    assert held.wait(60)
    # another session's writer goes ahead while alice's lock is held
    bob_writer, bob_done = _in_background(lambda: writer.on_turn_complete(bob, session_id="bob"))
    bob_writer.join(60)
    assert bob_done.is_set()
    # alice's own writer waits on the lock until it is released
    alice_writer, alice_done = _in_background(
        lambda: writer.on_turn_complete(alice, session_id="alice")
    )
    dbname = url.rsplit("/", 1)[1]
    waiting = "SELECT count(*) FROM pg_stat_activity WHERE datname = %s AND wait_event = 'advisory'"
    for _ in range(6_000):
        if postgres_server.sql("postgres", waiting, dbname) == [(1,)]:
            break
        time.sleep(0.01)
    assert postgres_server.sql("postgres", waiting, dbname) == [(1,)]
    assert not alice_done.is_set()
    release.set()
    holding.join(60)
    alice_writer.join(60)
    assert alice_done.is_set()
    assert stored(writer, "alice") == alice and stored(writer, "bob") == bob
    holder.close()
    writer.close()


def test_search_looks_past_the_latest_rows_when_they_hold_too_few_matches(
    postgres_server: PostgresServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    from hermes_engine_lcm.store.postgres import search

    monkeypatch.setattr(search, "RECENT_ROWS", 10)  # the first look covers 10 rows
    engine = LCMEngine({"lcm": {"database_url": postgres_server.create_database()}})
    history = sample_conversation(30, facts={1: "The kiln fires at dawn.", 2: "Kiln shelves."})
    history += [{"role": "user", "content": f"kiln note {n}"} for n in range(3)]
    engine.on_turn_complete(history)

    def grep(**args: Any) -> list[str]:
        answer = engine.handle_tool_call("lcm_grep", {"query": "kiln", **args})
        return [r["snippet"] for r in json.loads(answer)["results"]]

    everything = grep(limit=20)  # three in the latest rows, two far older
    assert sorted(everything) == sorted(
        ["The kiln fires at dawn.", "Kiln shelves.", *(f"kiln note {n}" for n in range(3))]
    )
    assert grep(limit=2, sort="recency") == ["kiln note 2", "kiln note 1"]
    assert grep(limit=5, sort="recency")[3:] == ["Kiln shelves.", "The kiln fires at dawn."]
    engine.close()

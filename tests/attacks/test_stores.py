"""Attacks on LCM's stores: checks that write into a live store, a server that is down,
a session someone else holds locked."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hermes_engine_lcm import LCMEngine

from hermes_core import ContextHost
from hermes_core.testing import EventCapture, host_for
from tests.postgres import holding_session_lock, started_postgres


def _tables(server: Any, url: str) -> list[str]:
    dbname = url.rsplit("/", 1)[1]
    rows = server.sql(dbname, "SELECT tablename FROM pg_tables WHERE schemaname = 'public'")
    return [row[0] for row in rows]


def _cli(*args: str, home: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    full = {**os.environ, "HERMES_HOME": str(home), "COLUMNS": "200", **env}
    full.pop("HERMES_CONFIG", None)
    full.pop("HERMES_CONTEXT_ENGINE", None)
    return subprocess.run(
        [sys.executable, "-m", "hermes_core", *args],
        env=full,
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.mark.parametrize("command", [["doctor", "lcm"], ["replay", "--engine", "lcm"]])
def test_checks_never_write_into_the_users_postgresql_store(
    postgres_server: Any, tmp_path: Path, command: list[str]
) -> None:
    url = postgres_server.create_database()
    if command[0] == "replay":
        conversation = tmp_path / "conversation.jsonl"
        lines = [
            {"role": "user" if n % 2 == 0 else "assistant", "content": f"turn {n}"}
            for n in range(40)
        ]
        conversation.write_text("\n".join(json.dumps(line) for line in lines), encoding="utf-8")
        command = [*command, str(conversation)]
    result = _cli(*command, home=tmp_path, env={"HERMES_LCM_DATABASE_URL": url})
    assert result.returncode == 0, result.stderr
    assert _tables(postgres_server, url) == []  # not even the schema was created
    assert postgres_server.password not in result.stdout + result.stderr


def test_a_host_uses_the_environment_it_was_given_not_the_process_one(
    postgres_server: Any, tmp_path: Path
) -> None:
    url = postgres_server.create_database()
    os.environ["HERMES_LCM_DATABASE_URL"] = url
    try:
        host = ContextHost.from_config(
            {"context": {"engine": "lcm"}}, env={"HERMES_HOME": str(tmp_path)}
        )
        host.start_session("s")
        host.turn_complete([{"role": "user", "content": "hello"}])
        host.close()
    finally:
        del os.environ["HERMES_LCM_DATABASE_URL"]
    assert _tables(postgres_server, url) == []
    assert (tmp_path / "lcm" / "lcm.db").exists()  # the home it was given
    given = ContextHost.from_config(
        {"context": {"engine": "lcm"}},
        env={"HERMES_HOME": str(tmp_path / "other"), "HERMES_LCM_DATABASE_URL": url},
    )
    assert given.status()["backend"] == "postgresql"
    given.close()


@pytest.fixture
def own_server() -> Iterator[Any]:
    """A PostgreSQL server of the test's own, which it may crash and restart (durable: what
    was committed before a crash is there after it)."""
    with started_postgres(durable=True) as server:
        yield server


def _lcm_host(home: Path, **lcm: Any) -> ContextHost:
    return host_for(
        LCMEngine,
        "lcm",
        {"lcm": lcm, "compression": {"hook_timeout_seconds": 5}},
        env={"HERMES_HOME": str(home)},
    )


def test_a_store_that_goes_down_fails_each_call_at_once_and_loses_nothing(
    own_server: Any, tmp_path: Path, logs: EventCapture
) -> None:
    host = _lcm_host(tmp_path, database_url=own_server.create_database())
    host.start_session("s")
    history = [{"role": "user", "content": "before the outage: lemur"}]
    host.turn_complete(history)
    own_server.crash()
    for n in range(5):
        history += [{"role": "user", "content": f"during the outage {n}: tapir"}]
        host.turn_complete(history)
    # each call failed with the store's reason, none waited out the host's 5 s bound
    assert host.status()["hook_timeouts"] == 0
    failures = logs.named("context_engine.hook_failed")
    assert len(failures) >= 5
    assert all("StoreUnavailable" in str(event["error"]) for event in failures)
    assert own_server.password not in str(logs.entries)
    own_server.restart()
    for _ in range(120):  # the breaker retries within seconds; nothing here times it
        history += [{"role": "assistant", "content": "back"}]
        host.turn_complete(history)
        found = json.loads(host.handle_tool_call("lcm_grep", {"query": "tapir"}))
        if "results" in found and len(found["results"]) == 5:
            break
        threading.Event().wait(0.5)
    assert len(found["results"]) == 5
    lemur = json.loads(host.handle_tool_call("lcm_grep", {"query": "lemur"}))
    assert len(lemur["results"]) == 1  # every message handed during the outage is stored
    assert logs.named("lcm.store_back")
    host.close()


def test_a_session_someone_holds_locked_never_stalls_the_other_sessions(
    postgres_server: Any, tmp_path: Path, logs: EventCapture
) -> None:
    url = postgres_server.create_database()
    host = _lcm_host(tmp_path, database_url=url, pool_size=2, lock_timeout_seconds=1)
    host.start_session("bob")
    with holding_session_lock(url, "alice"):
        for n in range(4):  # more than the pool holds
            host.turn_complete([{"role": "user", "content": f"alice {n}"}], session_id="alice")
        host.turn_complete([{"role": "user", "content": "bob's capybara"}], session_id="bob")
    assert host.status()["hook_timeouts"] == 0
    busy = logs.named("context_engine.hook_failed")
    assert len(busy) == 4 and all("StoreBusy" in str(event["error"]) for event in busy)
    found = json.loads(host.handle_tool_call("lcm_grep", {"query": "capybara"}, session_id="bob"))
    assert len(found["results"]) == 1
    host.close()


def test_writers_abandoned_on_a_locked_session_never_take_the_pool_from_another_session(
    postgres_server: Any, tmp_path: Path
) -> None:
    """The host gives up on each of alice's writes after its hook timeout (5 s), well below
    the store's lock timeout (60 s): the engine's threads go on waiting for alice's lock.
    Bob's writes must still find a connection."""
    url = postgres_server.create_database()
    host = _lcm_host(tmp_path, database_url=url, pool_size=2, lock_timeout_seconds=60)
    host.start_session("bob")
    with holding_session_lock(url, "alice"):
        alices = [
            threading.Thread(
                target=host.turn_complete,
                args=([{"role": "user", "content": f"alice {n}"}],),
                kwargs={"session_id": "alice"},
            )
            for n in range(4)  # more than the pool holds
        ]
        for thread in alices:
            thread.start()
        for thread in alices:
            thread.join(120)
        assert host.status()["hook_timeouts"] == 4  # abandoned, still waiting in the engine
        history: list[dict[str, Any]] = []
        for n in range(3):
            history.append({"role": "user", "content": f"bob's capybara {n}"})
            host.turn_complete(history, session_id="bob")
        assert host.status()["hook_timeouts"] == 4  # none of bob's
        found = json.loads(
            host.handle_tool_call("lcm_grep", {"query": "capybara"}, session_id="bob")
        )
        assert len(found["results"]) == 3
    for _ in range(600):  # the lock is free: alice's abandoned writes end (then close)
        found = json.loads(
            host.handle_tool_call("lcm_grep", {"query": "alice"}, session_id="alice")
        )
        if len(found["results"]) == 4:
            break
        threading.Event().wait(0.1)
    assert len(found["results"]) == 4  # nothing of alice's was lost either
    host.close()

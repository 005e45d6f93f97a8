"""Attacks on LCM's stores: checks that write into a live store, a server that is down,
a session someone else holds locked."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from hermes_core import ContextHost

postgres = pytest.mark.usefixtures("postgres_server")


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

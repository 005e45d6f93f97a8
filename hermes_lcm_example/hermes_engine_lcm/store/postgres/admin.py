"""A PostgreSQL server's administration, as the test server of ``hermes_engine_lcm.testing``
needs it: databases made, statements run as the superuser, client connections listed and
closed. The SQL lives here, with the backend's other SQL."""

from __future__ import annotations

from typing import Any

import psycopg

__all__ = ["client_connections", "create_database", "run", "terminate"]


def create_database(admin_url: str, name: str) -> None:
    """A new empty database ``name`` on the server of ``admin_url``."""
    with psycopg.connect(admin_url, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"'.encode())


def run(url: str, query: str, *params: Any) -> list[tuple[Any, ...]]:
    """One statement on the database of ``url``, outside a transaction; its rows."""
    with psycopg.connect(url, autocommit=True) as connection:
        cursor = connection.execute(query.encode(), params or None)
        return list(cursor) if cursor.description else []


def client_connections(admin_url: str) -> list[tuple[Any, ...]]:
    """The client connections open now, but the one asking: (pid, database, state,
    application name, backend start)."""
    return run(
        admin_url,
        "SELECT pid, datname, state, application_name, backend_start FROM pg_stat_activity"
        " WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()",
    )


def terminate(admin_url: str, pid: int) -> None:
    """End the server process ``pid`` serves a client from."""
    run(admin_url, "SELECT pg_terminate_backend(%s)", pid)

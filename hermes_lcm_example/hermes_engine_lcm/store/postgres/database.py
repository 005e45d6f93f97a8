"""The store on a PostgreSQL server: a connection pool, per-session write locks, migrations.

Many workers (threads, processes, machines) share one database. How they
stay out of each other's way:

* every write transaction first takes a transaction-scoped advisory lock on
  its session (``pg_advisory_xact_lock(LOCK_SESSION, hashtext(session_id))``):
  two writers of one session take turns, writers of different sessions run
  side by side; the lock goes with the transaction (commit, rollback, or a
  connection dropped by a killed worker), so it can never be left behind;
* ids come from sequences, never from ``MAX(id) + 1``;
* ingest decides what is new after taking the lock, so a message handed to
  two workers at once is stored once;
* a compaction pass summarises with no lock held, then, under the lock,
  checks that what it summarised is still the active context and writes the
  summary, its children and the new active context in one transaction: a
  concurrent ingest is never lost, and a pass killed part-way leaves nothing;
* reads run in a ``REPEATABLE READ READ ONLY`` transaction: one snapshot;
* migrations run under a lock of their own (``LOCK_MIGRATIONS``): ten
  workers starting together apply each migration once;
* a writer waits for its session's lock at most ``lock_timeout`` seconds
  (``StoreBusy`` then), so a session someone holds locked never keeps a pooled
  connection, and with it every other session, waiting;
* a server that is down fails calls at once (:mod:`.health`), instead of each
  waiting for the pool.
"""

from __future__ import annotations

import logging
import os
import threading
import weakref
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import psycopg
from psycopg.conninfo import conninfo_to_dict
from psycopg_pool import ConnectionPool, PoolTimeout

from hermes_core import get_logger
from hermes_core import redact as redact_text
from hermes_engine_lcm.errors import StoreBusy, StoreConnectionError
from hermes_engine_lcm.store.fingerprints import ensure_scheme
from hermes_engine_lcm.store.postgres.connection import PostgresConnection
from hermes_engine_lcm.store.postgres.health import Breaker, StoreUnavailable
from hermes_engine_lcm.store.postgres.schema import EMBEDDINGS_TABLE, MIGRATIONS

# psycopg and its pool report a server that is down as log warnings: without a handler of
# ours, logging's last resort would print them on the agent's stderr; this module reports
# the same as lcm.store_down events.
logging.getLogger("psycopg").addHandler(logging.NullHandler())

__all__ = [
    "LOCK_MIGRATIONS",
    "LOCK_SESSION",
    "PostgresDatabase",
    "StoreBusy",
    "StoreConnectionError",
    "StoreUnavailable",
    "has_password",
    "redact",
]

logger = get_logger("hermes_core.engines.lcm")

#: The advisory-lock class ids of the store ("LCMS", "LCMM" in ASCII).
LOCK_SESSION = 0x4C434D53
LOCK_MIGRATIONS = 0x4C434D4D
#: Seconds to wait for a connection from the pool, then fail with a clear error.
POOL_TIMEOUT = 10.0
CONNECT_TIMEOUT = 10
#: Seconds a probe of a server that was down may take.
PROBE_TIMEOUT = 2


def redact(url: str) -> str:
    """Where ``url`` points, without its password: ``postgresql://user@host:port/dbname``."""
    try:
        parts = conninfo_to_dict(url)
    except psycopg.ProgrammingError:
        return "postgresql://(unreadable URL)"
    user = f"{parts['user']}@" if parts.get("user") else ""
    host = str(parts.get("host") or "localhost")
    port = f":{parts['port']}" if parts.get("port") else ""
    return f"postgresql://{user}{host}{port}/{parts.get('dbname') or ''}"


def has_password(url: str) -> bool:
    """Whether ``url`` carries a password (``user:password@`` or ``?password=``)."""
    try:
        return bool(conninfo_to_dict(url).get("password"))
    except psycopg.ProgrammingError:
        return False


def _failure(exc: psycopg.Error) -> str:
    """What went wrong, in words that hold no secret: the server's own message when it sent
    one (it never quotes the connection string), else only the error's class."""
    primary = exc.diag.message_primary
    state = f" (SQLSTATE {exc.sqlstate})" if exc.sqlstate else ""
    return f"{type(exc).__name__}{state}" + (f": {primary}" if primary else "")


class _Turns:
    """One lock per session with writers in this process, dropped when the last one leaves
    (memory follows the sessions being written, not every session ever written)."""

    def __init__(self) -> None:
        self._guard = threading.Lock()
        self._locks: dict[str, tuple[threading.Lock, int]] = {}

    def take(self, session_id: str) -> threading.Lock:
        with self._guard:
            lock, users = self._locks.get(session_id, (None, 0))
            lock = lock or threading.Lock()
            self._locks[session_id] = (lock, users + 1)
            return lock

    def give_back(self, session_id: str) -> None:
        with self._guard:
            lock, users = self._locks[session_id]
            if users == 1:
                del self._locks[session_id]
            else:
                self._locks[session_id] = (lock, users - 1)


#: Every PostgreSQL store of the process, for the child of a fork.
_databases: weakref.WeakSet[PostgresDatabase] = weakref.WeakSet()


def _after_fork_in_child() -> None:
    for database in list(_databases):
        database._forget_pool()


os.register_at_fork(after_in_child=_after_fork_in_child)


class PostgresDatabase:
    """The store on a PostgreSQL server; thread-safe, one pool per instance (a forked child
    opens its own)."""

    backend = "postgresql"
    #: Full-text search is always there (tsvector and pg_trgm).
    fts = True

    def __init__(self, url: str, pool_size: int = 4, lock_timeout: float = 10.0) -> None:
        self.location = redact(url)
        self._url = url
        self._pool: ConnectionPool[psycopg.Connection[Any]] | None = None
        self._pool_size = pool_size
        self._lock_timeout_ms = max(1, int(lock_timeout * 1000))
        self._lock = threading.Lock()
        self._breaker = Breaker(self.location, self._probe)
        self._turns = _Turns()
        self._inherited: list[Any] = []
        self._migrate()
        _databases.add(self)

    def _forget_pool(self) -> None:
        """In a forked child: the parent's pool (its sockets, its threads) is not the
        child's; it is kept referenced, never closed (closing would end the parent's
        sessions), and the child opens a pool of its own when it first needs one."""
        if self._pool is not None:
            self._inherited.append(self._pool)
        self._pool = None
        self._lock = threading.Lock()
        self._turns = _Turns()

    def _probe(self) -> None:
        psycopg.connect(self._url, connect_timeout=PROBE_TIMEOUT).close()

    def _open(self) -> ConnectionPool[psycopg.Connection[Any]]:
        if self._breaker.check():  # the server came back: connections made before are dead
            self._drop_pool(wait=1.0)
        with self._lock:
            if self._pool is None:
                self._pool = ConnectionPool(
                    self._url,
                    min_size=1,
                    max_size=self._pool_size,
                    kwargs={"autocommit": True, "connect_timeout": CONNECT_TIMEOUT},
                    timeout=POOL_TIMEOUT,
                    name="lcm",
                    open=False,
                )
                try:
                    self._pool.open(wait=True, timeout=POOL_TIMEOUT)
                except PoolTimeout:
                    self._pool.close(timeout=1.0)
                    self._pool = None
                    self._breaker.trip("no connection could be opened")
                    raise StoreConnectionError(
                        f"lcm: no connection to the PostgreSQL store at {self.location} within "
                        f"{POOL_TIMEOUT:.0f} s: check that the server is up, that the URL in "
                        "lcm.database_url (or the variable named by lcm.database_url_env) is "
                        "right, and the server's log for refused logins"
                    ) from None
            return self._pool

    @contextmanager
    def _transaction(self, read_only: bool, pipeline: bool = True) -> Iterator[PostgresConnection]:
        pool = self._open()
        try:
            with pool.connection() as raw:
                try:
                    if read_only:
                        with raw.transaction():
                            raw.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
                            yield PostgresConnection(raw)
                    elif pipeline:
                        # pipelined: statements whose rows nobody reads (BEGIN, the lock,
                        # inserts, updates, COMMIT) travel together; only a read of rows
                        # waits for the server
                        with raw.pipeline(), raw.transaction():
                            yield PostgresConnection(raw)
                    else:
                        with raw.transaction():
                            yield PostgresConnection(raw)
                except psycopg.errors.LockNotAvailable:
                    raise StoreBusy(
                        f"lcm: a session's lock in {self.location} stayed held by another "
                        f"writer for {self._lock_timeout_ms / 1000:g} s; nothing was written"
                    ) from None
                except psycopg.OperationalError as exc:
                    if raw.broken or raw.closed:  # the server went away: fail fast from now
                        self._breaker.trip(_failure(exc))
                        raise StoreUnavailable(
                            f"lcm: lost the PostgreSQL store at {self.location}: {_failure(exc)}"
                        ) from None
                    raise
        except PoolTimeout:
            try:
                self._probe()
            except psycopg.Error as exc:
                self._breaker.trip(_failure(exc))
                raise StoreUnavailable(
                    f"lcm: the PostgreSQL store at {self.location} is unreachable: {_failure(exc)}"
                ) from None
            raise StoreConnectionError(
                f"lcm: every connection of the pool to {self.location} stayed busy for "
                f"{POOL_TIMEOUT:.0f} s; raise lcm.pool_size or the server's max_connections"
            ) from None

    @contextmanager
    def write(self, session_id: str | None = None) -> Iterator[PostgresConnection]:
        """A write transaction holding ``session_id``'s lock: committed when the block ends,
        rolled back if it raises.

        Writers of one session in this process take turns before they take a connection:
        at most one connection waits on a session's lock, so writes to a session someone
        else holds (each abandoned by its host after its own timeout, still waiting here)
        can never take the pool from the other sessions. A writer that waits its turn
        longer than the lock timeout fails as one that waited on the lock would.
        """
        if session_id is None:
            with self._transaction(read_only=False) as db:
                yield db
            return
        turn = self._turns.take(session_id)
        if not turn.acquire(timeout=self._lock_timeout_ms / 1000):
            self._turns.give_back(session_id)
            raise StoreBusy(
                f"lcm: a session's lock in {self.location} stayed held by another writer "
                f"for {self._lock_timeout_ms / 1000:g} s; nothing was written"
            )
        try:
            with self._transaction(read_only=False) as db:
                db.raw.execute(f"SET LOCAL lock_timeout = {self._lock_timeout_ms}")
                db.raw.execute(
                    "SELECT pg_advisory_xact_lock(%s, hashtext(%s))", (LOCK_SESSION, session_id)
                )
                yield db
        finally:
            turn.release()
            self._turns.give_back(session_id)

    @contextmanager
    def bulk_write(self) -> Iterator[PostgresConnection]:
        """A write transaction that is not pipelined (``COPY`` needs one), holding no lock."""
        with self._transaction(read_only=False, pipeline=False) as db:
            yield db

    @contextmanager
    def read(self) -> Iterator[PostgresConnection]:
        """A read transaction: one consistent snapshot for several queries."""
        with self._transaction(read_only=True) as db:
            yield db

    def checkpoint(self) -> None:
        """Nothing to do: the server checkpoints its own write-ahead log."""

    def close(self) -> None:
        """Close the pool (a later call opens a new one); connections still lent out are
        closed when they come back, and the pool's workers are waited for (one still
        opening a connection would otherwise leave it open)."""
        self._drop_pool(wait=5.0)

    def _drop_pool(self, wait: float) -> None:
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.close(timeout=wait)

    def _migrate(self) -> None:
        """Apply the migrations not applied yet, on a connection of its own (which also tells
        a wrong URL or password at once, where the pool would keep retrying)."""
        try:
            with psycopg.connect(self._url, connect_timeout=CONNECT_TIMEOUT) as raw:
                raw.execute("SELECT pg_advisory_xact_lock(%s, 0)", (LOCK_MIGRATIONS,))
                raw.execute("CREATE TABLE IF NOT EXISTS lcm_schema (version INTEGER NOT NULL)")
                row = raw.execute("SELECT version FROM lcm_schema").fetchone()
                if row is None:
                    raw.execute("INSERT INTO lcm_schema (version) VALUES (0)")
                version = int(row[0]) if row else 0
                for number, script in enumerate(MIGRATIONS, start=1):
                    if version < number:
                        raw.execute(script.encode())  # several statements, no parameters
                        raw.execute("UPDATE lcm_schema SET version = %s", (number,))
                        logger.info("lcm.migrated", database=self.location, version=number)
                ensure_scheme(PostgresConnection(raw))
                for statement in EMBEDDINGS_TABLE:
                    raw.execute(statement)
        except psycopg.OperationalError as exc:
            raise StoreConnectionError(
                f"lcm: cannot use the PostgreSQL store at {self.location}: "
                f"{redact_text(str(exc)).strip()}; check lcm.database_url (or the variable "
                "named by lcm.database_url_env) and that the server is up"
            ) from None
        except psycopg.Error as exc:
            raise StoreConnectionError(
                f"lcm: could not prepare the PostgreSQL store at {self.location}: "
                f"{_failure(exc)}; the URL's user needs CREATE on the database (and the "
                "pg_trgm extension must be installable: Debian's postgresql package has it)"
            ) from None

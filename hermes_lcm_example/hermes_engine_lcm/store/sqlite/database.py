"""Opening the SQLite store: WAL, a busy timeout, foreign keys, migrations.

A database file this engine creates is made with mode 0600 (in a directory
made 0700); a path that exists is never chmodded: a directory is refused, and
so is a file its owner made read-only.

One connection per thread (SQLite connections are not shared between
threads); every write runs in a ``BEGIN IMMEDIATE`` transaction, so writers
queue on the busy timeout instead of failing with "database is locked".
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import threading
import weakref
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from hermes_core import get_logger
from hermes_engine_lcm.errors import StorePathError
from hermes_engine_lcm.store.fingerprints import ensure_scheme
from hermes_engine_lcm.store.sqlite.connection import SQLiteConnection
from hermes_engine_lcm.store.sqlite.schema import CORE_MIGRATIONS, EMBEDDINGS_TABLE, FTS_MIGRATIONS

__all__ = ["Database", "StorePathError", "fts5_available"]

logger = get_logger("hermes_core.engines.lcm")

BUSY_TIMEOUT_MS = 30_000
CACHE_KIB = 16_384
_fts_warned = False


def fts5_available() -> bool:
    """Whether this SQLite build has FTS5 with the trigram tokenizer."""
    probe = sqlite3.connect(":memory:")
    try:
        probe.execute("CREATE VIRTUAL TABLE probe USING fts5(x, tokenize='trigram')")
        return True
    except sqlite3.OperationalError:
        return False
    finally:
        probe.close()


def _open_path(path: Path) -> None:
    """Create the database file with mode 0600, or check that an existing one may be written.

    Raises :class:`StorePathError` saying what is wrong and what to do; the
    mode of an existing path is never changed.
    """
    if path.is_dir():
        raise StorePathError(
            f"lcm.database {path} is a directory; name a file in it, e.g. {path / 'lcm.db'}"
        )
    if path.exists():
        mode = path.stat().st_mode
        if not mode & 0o200 or not os.access(path, os.W_OK):
            raise StorePathError(
                f"lcm.database {path} is read-only (mode {mode & 0o777:04o}); LCM writes every "
                "message there and leaves the mode you chose alone: make it writable "
                "(chmod u+w) or set lcm.database to another file"
            )
        return
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    with contextlib.suppress(FileExistsError):  # another process created it a moment ago
        os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_RDWR, 0o600))


#: Every open SQLite store of the process, for the child of a fork.
_databases: weakref.WeakSet[Database] = weakref.WeakSet()


def _after_fork_in_child() -> None:
    for database in list(_databases):
        database._forget_connections()


os.register_at_fork(after_in_child=_after_fork_in_child)


class Database:
    """The store's database file; thread-safe. A forked child opens connections of its own."""

    backend = "sqlite"

    def __init__(self, path: Path) -> None:
        self.path = path
        self.location = str(path)
        _open_path(path)
        self._forget_connections()
        self.fts = self._migrate()
        _databases.add(self)

    def _forget_connections(self) -> None:
        """No connection yet: a new store's state, and a forked child's. SQLite connections
        must not cross a fork: the child opens its own and never touches (nor closes) the
        parent's, which stay referenced in ``_inherited`` so that no finalizer closes them."""
        inherited = getattr(self, "_connections", [])
        self._inherited: list[SQLiteConnection] = [*getattr(self, "_inherited", []), *inherited]
        self._local = threading.local()
        self._connections: list[SQLiteConnection] = []
        self._lock = threading.Lock()

    def connection(self) -> SQLiteConnection:
        """This thread's connection (autocommit; transactions are explicit)."""
        connection: SQLiteConnection | None = getattr(self._local, "connection", None)
        if connection is None:
            connection = sqlite3.connect(
                self.path,
                factory=SQLiteConnection,
                isolation_level=None,
                check_same_thread=False,
                timeout=BUSY_TIMEOUT_MS / 1000,
            )
            connection.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            connection.execute("PRAGMA foreign_keys = ON")
            connection.execute("PRAGMA synchronous = NORMAL")
            # FTS5 merges read back index pages: a larger cache keeps ingest
            # from slowing down as the store grows.
            connection.execute(f"PRAGMA cache_size = -{CACHE_KIB}")
            self._local.connection = connection
            with self._lock:
                self._connections.append(connection)
        return connection

    @contextmanager
    def write(self, session_id: str | None = None) -> Iterator[SQLiteConnection]:
        """A write transaction: committed when the block ends, rolled back if it raises.

        SQLite runs one write transaction at a time, whatever ``session_id``
        (the session written to, which a server backend locks alone).
        """
        connection = self.connection()
        connection.execute("BEGIN IMMEDIATE")
        try:
            yield connection
        except BaseException:
            connection.execute("ROLLBACK")
            raise
        connection.execute("COMMIT")

    @contextmanager
    def read(self) -> Iterator[SQLiteConnection]:
        """A read transaction: one consistent snapshot for several queries."""
        connection = self.connection()
        connection.execute("BEGIN")
        try:
            yield connection
        finally:
            connection.execute("COMMIT")

    def checkpoint(self) -> None:
        """Fold the write-ahead log into the database file, without waiting for readers."""
        self.connection().execute("PRAGMA wal_checkpoint(PASSIVE)")

    def close(self) -> None:
        """Close every thread's connection."""
        with self._lock:
            for connection in self._connections:
                connection.close()
            self._connections.clear()
        self._local = threading.local()

    def _migrate(self) -> bool:
        global _fts_warned
        connection = self.connection()
        connection.execute("PRAGMA journal_mode = WAL")
        has_fts = fts5_available()
        with self.write() as db:
            version = db.execute("PRAGMA user_version").fetchone()[0]
            for number, script in enumerate(CORE_MIGRATIONS, start=1):
                if version < number:
                    for statement in _statements(script):
                        db.execute(statement)
                    version = number
            if has_fts:
                for number, script in enumerate(FTS_MIGRATIONS, start=len(CORE_MIGRATIONS) + 1):
                    if version < number:
                        for statement in _statements(script):
                            db.execute(statement)
                        version = number
            db.execute(f"PRAGMA user_version = {version}")
            ensure_scheme(db)
            for statement in EMBEDDINGS_TABLE:
                db.execute(statement)
        fts: bool = version >= len(CORE_MIGRATIONS) + len(FTS_MIGRATIONS)
        if not fts and not _fts_warned:
            _fts_warned = True
            logger.warning(
                "lcm.fts5_unavailable",
                database=str(self.path),
                effect="lcm_grep falls back to a slower substring scan",
                hint="use a Python whose sqlite3 has FTS5 (SQLite 3.34 or newer)",
            )
        return fts


def _statements(script: str) -> list[str]:
    """Split a migration script into statements; trigger bodies stay whole."""
    statements = []
    buffer: list[str] = []
    for line in script.strip().splitlines():
        buffer.append(line)
        text = "\n".join(buffer).strip()
        if text.endswith(";") and sqlite3.complete_statement(text):
            statements.append(text)
            buffer = []
    if "\n".join(buffer).strip():
        statements.append("\n".join(buffer).strip())
    return statements

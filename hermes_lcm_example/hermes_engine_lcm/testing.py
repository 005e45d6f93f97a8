"""A throwaway PostgreSQL server for tests and benchmarks of the PostgreSQL store.

:class:`PostgresServer` runs Debian's (or any) PostgreSQL binaries on a
temporary data directory and a free port on 127.0.0.1, and removes both when
stopped. PostgreSQL refuses to run as root: under root the server runs as an
unprivileged user (``nobody`` unless ``HERMES_POSTGRES_USER`` names another).
The binaries are found in ``HERMES_POSTGRES_BIN``, else the newest
``/usr/lib/postgresql/<version>/bin``, else on ``PATH``.

A server that need not be durable (the tests') keeps its data in memory, on
a RAM filesystem (``/dev/shm``) when there is one with room: creating a
database there takes about 20 ms instead of about 300 ms on disk, and stopping
the server removes nothing from a disk. ``durable=True`` (benchmarks) keeps the
data on disk, in the temporary directory.

Logins over TCP need the password (scram-sha-256), so a URL with a password
in it is exercised for real; :attr:`PostgresServer.url` carries it.
"""

from __future__ import annotations

import glob
import os
import secrets
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

from hermes_engine_lcm.errors import PostgresUnavailable

__all__ = ["PostgresServer", "PostgresUnavailable", "find_binaries", "scratch_parent"]


def find_binaries() -> Path:
    """The folder holding ``initdb`` and ``postgres``. A folder named in
    ``$HERMES_POSTGRES_BIN`` is the only one tried: naming a wrong one is an error, not a
    silent fall back to another PostgreSQL."""
    named = os.environ.get("HERMES_POSTGRES_BIN")
    if named:
        if (Path(named) / "initdb").exists() and (Path(named) / "postgres").exists():
            return Path(named)
        raise PostgresUnavailable(
            f"$HERMES_POSTGRES_BIN names {named}, which holds no initdb and postgres: "
            "name the folder of PostgreSQL's server binaries, or unset it"
        )
    candidates: list[str] = []
    candidates += sorted(
        glob.glob("/usr/lib/postgresql/*/bin"), key=lambda p: int(p.split("/")[-2]), reverse=True
    )
    initdb = shutil.which("initdb")
    if initdb:
        candidates.append(str(Path(initdb).parent))
    for folder in candidates:
        if (Path(folder) / "initdb").exists() and (Path(folder) / "postgres").exists():
            return Path(folder)
    raise PostgresUnavailable(
        "no PostgreSQL binaries (initdb, postgres) in $HERMES_POSTGRES_BIN, "
        "/usr/lib/postgresql/*/bin or PATH: apt-get install postgresql"
    )


#: Where a non-durable server keeps its data when that folder has room.
RAM_FOLDER = Path("/dev/shm")
#: The room it must have (a server with a few hundred databases holds about 2 GiB).
RAM_ROOM = 4 * 1024**3


def scratch_parent(durable: bool) -> str | None:
    """The folder a server's data goes under: :data:`RAM_FOLDER` for a server that need
    not be durable, when it is a writable folder with :data:`RAM_ROOM` free; else None
    (the temporary directory)."""
    if durable or not RAM_FOLDER.is_dir() or not os.access(RAM_FOLDER, os.W_OK):
        return None
    try:
        free = shutil.disk_usage(RAM_FOLDER).free
    except OSError:
        return None
    return str(RAM_FOLDER) if free >= RAM_ROOM else None


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class PostgresServer:
    """One PostgreSQL server; ``start()``, then ``url(dbname)`` / ``create_database()``."""

    def __init__(self, durable: bool = False) -> None:
        #: False: fsync and synchronous commit off (tests); True: the server's defaults.
        self.durable = durable
        self.password = secrets.token_urlsafe(12)
        self.port = 0
        self.folder: Path | None = None
        self._process: subprocess.Popen[bytes] | None = None
        self._user: str | None = None
        self._created = 0

    def _run(self, *command: str) -> None:
        subprocess.run(
            command, check=True, user=self._user, capture_output=True, cwd=self.folder or "/"
        )

    def start(self) -> PostgresServer:
        binaries = find_binaries()
        self.folder = Path(
            tempfile.mkdtemp(prefix="hermes-postgres-", dir=scratch_parent(self.durable))
        )
        if os.geteuid() == 0:  # PostgreSQL will not run as root
            self._user = os.environ.get("HERMES_POSTGRES_USER", "nobody")
            shutil.chown(self.folder, user=self._user)
        password_file = self.folder / "password"
        password_file.write_text(self.password)
        if self._user:
            shutil.chown(password_file, user=self._user)
        data = self.folder / "data"
        self._run(
            str(binaries / "initdb"),
            "-D",
            str(data),
            "-U",
            "postgres",
            "--auth-local=trust",
            "--auth-host=scram-sha-256",
            f"--pwfile={password_file}",
            "-E",
            "UTF8",
            "--locale=C.UTF-8",
        )
        self.port = _free_port()
        self._launch()
        return self

    def _launch(self) -> None:
        assert self.folder is not None, "start() first"
        binaries = find_binaries()
        data = self.folder / "data"
        settings = ["-c", "max_connections=300", "-c", "listen_addresses=127.0.0.1"]
        if not self.durable:
            settings += ["-c", "fsync=off", "-c", "synchronous_commit=off"]
        self._process = subprocess.Popen(
            [
                str(binaries / "postgres"),
                "-D",
                str(data),
                "-p",
                str(self.port),
                "-k",
                str(self.folder),
                *settings,
            ],
            user=self._user,
            stdout=subprocess.DEVNULL,
            stderr=open(self.folder / "server.log", "ab"),  # noqa: SIM115 (the server's)
            cwd=self.folder,
        )
        self._wait_ready()

    def crash(self) -> None:
        """Stop the server as ``pg_ctl stop -m immediate`` does (SIGQUIT): no shutdown
        checkpoint, clients cut off; :meth:`restart` brings it back on the same port."""
        if self._process is not None:
            self._process.send_signal(signal.SIGQUIT)
            self._process.wait(timeout=60)
            self._process = None

    def restart(self) -> None:
        """Start the server again, on the same data and port, after :meth:`crash`."""
        self._launch()

    def _wait_ready(self, seconds: float = 60.0) -> None:
        import psycopg

        until = time.monotonic() + seconds
        while True:
            try:
                psycopg.connect(self.url("postgres"), connect_timeout=2).close()
                return
            except psycopg.OperationalError:
                if self._process is not None and self._process.poll() is not None:
                    raise RuntimeError(f"PostgreSQL exited: see {self.folder}/server.log") from None
                if time.monotonic() > until:
                    raise
                time.sleep(0.1)

    def url(self, dbname: str = "postgres") -> str:
        return f"postgresql://postgres:{self.password}@127.0.0.1:{self.port}/{dbname}"

    def create_database(self, prefix: str = "lcm") -> str:
        """A new empty database; its URL."""
        from hermes_engine_lcm.store.postgres import admin

        self._created += 1
        name = f"{prefix}_{os.getpid()}_{self._created}"
        admin.create_database(self.url("postgres"), name)
        return self.url(name)

    def sql(self, dbname: str, query: str, *params: Any) -> list[tuple[Any, ...]]:
        """Run one statement on ``dbname`` as the superuser; its rows."""
        from hermes_engine_lcm.store.postgres import admin

        return admin.run(self.url(dbname), query, *params)

    def clients(self) -> list[tuple[Any, ...]]:
        """The client connections open now, but the one asking: (pid, database, state,
        application name, backend start)."""
        from hermes_engine_lcm.store.postgres import admin

        return admin.client_connections(self.url("postgres"))

    def close_clients(self) -> list[tuple[Any, ...]]:
        """Close every client connection still open (after a moment for those closing
        already to go); returns those it closed."""
        deadline = time.monotonic() + 3.0
        left = self.clients()
        while left and time.monotonic() < deadline:
            time.sleep(0.1)
            left = self.clients()
        from hermes_engine_lcm.store.postgres import admin

        for pid, *_ in left:
            admin.terminate(self.url("postgres"), pid)
        return left

    def stop(self) -> None:
        if self._process is not None:
            # SIGINT is PostgreSQL's "fast" shutdown: clients are disconnected at once.
            # SIGTERM is "smart" and waits for every client to leave.
            self._process.send_signal(signal.SIGINT)
            try:
                self._process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait()
            self._process = None
        if self.folder is not None:
            shutil.rmtree(self.folder, ignore_errors=True)
            self.folder = None

    def __enter__(self) -> PostgresServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

"""Hermes Agent's session store (``state.db``), opened read-only.

Hermes keeps every session of a home in ``$HERMES_HOME/state.db`` (and each
profile's in ``profiles/<name>/state.db``): SQLite in WAL mode, schema 22 in
0.19, 30-31 in 0.21-0.22. This module lists the sessions and reads a
session's rows, and never writes, in its folder or elsewhere beside it:

- A store in WAL mode (Hermes' default) with no ``-wal`` file beside it has no
  Hermes process holding it open: it is opened ``mode=ro&immutable=1``, and
  SQLite creates no ``-wal`` or ``-shm`` file.
- A store with a ``-wal`` beside it (Hermes is running, or was killed) is read
  from a private copy of the file and its ``-wal``, taken in a temporary folder:
  a read-only open of the store itself would create or write its ``-shm``.
- A store in rollback-journal mode (Hermes 0.22's ``database.journal_mode:
  delete``, for network filesystems) never has a ``-wal``, and Hermes may be
  writing it: it is opened ``mode=ro`` alone, so that SQLite's locks keep a
  half-written transaction out of what is read.

A row of a type Hermes never writes (``started_at`` as text or ``1e300``,
token counts as text) is skipped and counted, never fatal: the rest is listed.

Hermes 0.19-0.22.2 keeps sessions in SQLite only: its ``database`` settings are
the journal mode and WAL sizes, and a PostgreSQL session store is a proposal
(NousResearch/hermes-agent#23717), so there is no PostgreSQL store to read.
"""

from __future__ import annotations

import math
import shutil
import sqlite3
import tempfile
from collections.abc import Iterator
from contextlib import closing, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

from hermes_core._errors import SessionStoreError
from hermes_core._redaction import redact
from hermes_core.hermes_agent.sessions._summaries import SUMMARY_CANDIDATE_LIKE, is_summary

__all__ = [
    "SUPPORTED_VERSIONS",
    "HermesSession",
    "SessionStoreError",
    "list_sessions",
    "open_store",
    "session_rows",
    "store_paths",
]

#: The schema versions whose sessions and messages this reader knows (0.19 to 0.22).
SUPPORTED_VERSIONS = range(22, 32)
#: The columns read from ``messages``; the newer ones are read where the schema has them.
_MESSAGE_COLUMNS = (
    "id",
    "session_id",
    "role",
    "content",
    "tool_call_id",
    "tool_calls",
    "tool_name",
    "timestamp",
    "active",
    "compacted",
)
_NEWER_COLUMNS = ("_compressed_summary",)


@dataclass(frozen=True)
class HermesSession:
    """One session as ``sessions`` holds it, with where it was found."""

    id: str
    store: Path
    profile: str
    title: str | None
    started_at: float
    model: str | None
    messages: int
    parent_id: str | None
    end_reason: str | None
    input_tokens: int
    output_tokens: int
    #: Compaction passes Hermes made in it: in-place (summaries stored) plus, for a
    #: session a rotation ended, the rotation.
    compactions: int

    def as_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "profile": self.profile,
            "title": None if self.title is None else redact(self.title),
            "started_at": self.started_at,
            "model": self.model,
            "messages": self.messages,
            "parent_id": self.parent_id,
            "end_reason": self.end_reason,
            "input_tokens": self.input_tokens,
            "output_tokens": self.output_tokens,
            "compactions": self.compactions,
        }


def store_paths(home: Path) -> list[tuple[str, Path]]:
    """Each store of ``home``: ("default", home/state.db), then each profile's, by name."""
    found = [("default", home / "state.db")] if (home / "state.db").is_file() else []
    profiles = home / "profiles"
    if profiles.is_dir():
        for folder in sorted(profiles.iterdir()):
            if (folder / "state.db").is_file():
                found.append((folder.name, folder / "state.db"))
    return found


@contextmanager
def open_store(path: Path) -> Iterator[sqlite3.Connection]:
    """A read-only connection to the store at ``path``, its schema version checked; nothing
    is written beside the store (a store with a ``-wal`` is read from a private copy)."""
    if path.with_name(path.name + "-wal").exists():
        with tempfile.TemporaryDirectory(prefix="hermes-store-") as folder:
            copy = _private_copy(path, Path(folder))
            with _connected(path, copy, "mode=ro") as connection:
                yield connection
        return
    mode = "mode=ro&immutable=1" if _closed_wal_store(path) else "mode=ro"
    with _connected(path, path, mode) as connection:
        yield connection


#: Tries at a copy that no write of Hermes' overlapped.
_COPY_TRIES = 5


def _private_copy(path: Path, folder: Path) -> Path:
    """``path`` and its ``-wal`` copied into ``folder``: the ``-wal`` before and after the
    file, again until it did not change meanwhile (SQLite reads a ``-wal`` only up to its
    last whole transaction, so a copy of one being written is still consistent)."""
    wal = path.with_name(path.name + "-wal")
    copy = folder / path.name
    for _ in range(_COPY_TRIES):
        try:
            before = wal.stat()
            shutil.copyfile(path, copy)
            shutil.copyfile(wal, folder / wal.name)
            after = wal.stat()
        except FileNotFoundError:  # Hermes closed it meanwhile: its WAL was checkpointed
            (folder / wal.name).unlink(missing_ok=True)
            shutil.copyfile(path, copy)
            return copy
        except OSError as exc:
            raise SessionStoreError(f"{path}: cannot read it ({exc})") from None
        if (before.st_size, before.st_mtime_ns) == (after.st_size, after.st_mtime_ns):
            break
    return copy


@contextmanager
def _connected(path: Path, file: Path, mode: str) -> Iterator[sqlite3.Connection]:
    """A connection to ``file`` (the store at ``path``, or a copy of it), errors naming
    ``path``."""
    try:
        connection = sqlite3.connect(f"file:{quote(str(file))}?{mode}", uri=True, timeout=5)
    except sqlite3.Error as exc:
        raise SessionStoreError(f"{path}: cannot open it read-only ({exc})") from None
    with closing(connection):
        connection.row_factory = sqlite3.Row
        try:
            row = connection.execute("SELECT MAX(version) FROM schema_version").fetchone()
        except sqlite3.DatabaseError as exc:
            raise SessionStoreError(_unreadable(path, exc)) from None
        version = row[0] if row else None
        if version not in SUPPORTED_VERSIONS:
            raise SessionStoreError(
                f"{path}: schema version {version} is not one this reader knows "
                f"({SUPPORTED_VERSIONS.start}-{SUPPORTED_VERSIONS.stop - 1}, Hermes Agent "
                "0.19-0.22): update hermes-context, or report the version with the Hermes "
                "release that wrote it; nothing was read"
            )
        try:  # what the caller reads may fail the same ways: one error, naming the file
            yield connection
        except sqlite3.DatabaseError as exc:
            raise SessionStoreError(_unreadable(path, exc)) from None


def _closed_wal_store(path: Path) -> bool:
    """Whether ``path`` is in WAL mode (bytes 18-19 of the SQLite header are 2) with no
    ``-wal`` file beside it: a store no process has open, which cannot change under us."""
    if path.with_name(path.name + "-wal").exists():
        return False
    try:
        with path.open("rb") as file:
            header = file.read(20)
    except OSError:
        return False  # the open that follows names the file and the reason
    return header[:16] == b"SQLite format 3\x00" and header[18:20] == b"\x02\x02"


def _unreadable(path: Path, exc: sqlite3.Error) -> str:
    text = str(exc)
    if "locked" in text:
        return (
            f"{path}: locked by another process ({text}); try again when Hermes is between "
            "turns, or copy the file (with its -wal) and read the copy"
        )
    return (
        f"{path}: not a Hermes session store SQLite can read ({text}); check the path, or "
        f"run 'sqlite3 {path} \"PRAGMA integrity_check\"'"
    )


def list_sessions(home: Path, skipped: list[str] | None = None) -> list[HermesSession]:
    """Every session of every store of ``home``, the latest started first. A row that cannot
    be read as a session is left out, and described in ``skipped`` (file, id, why)."""
    sessions: list[HermesSession] = []
    for profile, path in store_paths(home):
        with open_store(path) as db:
            rows = db.execute(
                "SELECT s.id, s.title, s.started_at, s.model, s.parent_session_id,"
                " s.end_reason, s.input_tokens, s.output_tokens,"
                " (SELECT COUNT(*) FROM messages m WHERE m.session_id = s.id"
                "  AND (m.active = 1 OR m.compacted = 1)) AS kept"
                " FROM sessions s"
            ).fetchall()
            passes = _compactions(db)
        for row in rows:
            try:
                sessions.append(_session(row, path, profile, passes))
            except ValueError as exc:
                if skipped is not None:
                    skipped.append(f"{path}: session {redact(repr(row['id']))[:80]}: {exc}")
    return sorted(sessions, key=lambda session: session.started_at, reverse=True)


#: The latest start a session may have (the end of year 9999, as datetime can show it).
_LATEST = 253_402_300_799.0


def _session(row: sqlite3.Row, path: Path, profile: str, passes: dict[str, int]) -> HermesSession:
    """One session row, its types checked (ValueError naming the column otherwise)."""
    started = _number(row["started_at"], "started_at")
    if not 0 <= started <= _LATEST:
        raise ValueError(f"started_at {started!r} is no time")
    rotated = 1 if row["end_reason"] == "compression" else 0
    return HermesSession(
        id=str(row["id"]),
        store=path,
        profile=profile,
        title=_text(row["title"]),
        started_at=started,
        model=_text(row["model"]),
        messages=int(row["kept"] or 0),
        parent_id=_text(row["parent_session_id"]),
        end_reason=_text(row["end_reason"]),
        input_tokens=int(_number(row["input_tokens"], "input_tokens")),
        output_tokens=int(_number(row["output_tokens"], "output_tokens")),
        compactions=passes.get(str(row["id"]), 0) + rotated,
    )


def _number(value: Any, column: str) -> float:
    """A column Hermes writes as a number: None is 0; anything else not a finite number
    of at most 1e18 is a ValueError naming ``column``."""
    if value is None:
        return 0.0
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError(f"{column} is {type(value).__name__}, not a number")
    if not math.isfinite(value) or abs(value) > 1e18:
        raise ValueError(f"{column} {value!r} is out of range")
    return float(value)


def _text(value: Any) -> str | None:
    return None if value is None else str(value)


def _compactions(db: sqlite3.Connection) -> dict[str, int]:
    """In-place compactions per session: the summary rows a pass stored (flagged where the
    schema flags them, else recognised by their engine's marker: Hermes', ours, or any
    that follows the convention; :mod:`.summaries`)."""
    columns = {row[1] for row in db.execute("PRAGMA table_info(messages)")}
    flag = "_compressed_summary" if "_compressed_summary" in columns else "0"
    rows = db.execute(
        f"SELECT session_id, role, content, {flag} FROM messages"
        f" WHERE ({flag} = 1 OR content LIKE ?) AND (active = 1 OR compacted = 1)",
        (SUMMARY_CANDIDATE_LIKE,),
    )
    counts: dict[str, int] = {}
    for session, role, head, flagged in rows:
        if is_summary({"role": role, "content": head, "_compressed_summary": flagged}):
            counts[str(session)] = counts.get(str(session), 0) + 1
    return counts


def session_rows(path: Path, session_id: str) -> tuple[list[str], list[dict[str, Any]]]:
    """The chain of ``session_id`` (its ancestors by rotation, oldest first, then itself)
    and the rows of every session of it, in order, as dicts of the columns read."""
    with open_store(path) as db:
        chain = _chain(db, session_id, path)
        columns = {row[1] for row in db.execute("PRAGMA table_info(messages)")}
        wanted = [*_MESSAGE_COLUMNS, *(c for c in _NEWER_COLUMNS if c in columns)]
        rows: list[dict[str, Any]] = []
        for member in chain:
            cursor = db.execute(
                f"SELECT {', '.join(wanted)} FROM messages WHERE session_id = ? ORDER BY id",
                (member,),
            )
            rows.extend(dict(row) for row in cursor)
    return chain, rows


def _chain(db: sqlite3.Connection, session_id: str, path: Path) -> list[str]:
    """``session_id`` and the sessions a rotation continued it from, oldest first."""
    chain: list[str] = []
    current: str | None = session_id
    while current is not None and current not in chain:
        row = db.execute(
            "SELECT id, parent_session_id, end_reason FROM sessions WHERE id = ?", (current,)
        ).fetchone()
        if row is None:
            if not chain:
                raise SessionStoreError(
                    f"{path}: no session {session_id!r}; 'hermes-context sessions' lists them"
                )
            break
        chain.append(str(row["id"]))
        parent = row["parent_session_id"]
        if parent is None:
            break
        parent_row = db.execute(
            "SELECT end_reason FROM sessions WHERE id = ?", (parent,)
        ).fetchone()
        # only a rotation continues a conversation; a branch or a /new keeps its own
        current = str(parent) if parent_row and parent_row["end_reason"] == "compression" else None
    return list(reversed(chain))

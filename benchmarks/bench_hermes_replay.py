"""Replaying a user's Hermes session: a 2,000-message session stored as Hermes 0.19 stores
it (compacted in place twice), read, rebuilt and replayed through compressor and lcm, beside
the bundled sample's replay through the same engine.

Side by side in one run, per engine, per message replayed: the Hermes session (read
from the store, rebuilt, then one ``select_context`` per model call and the probes)
against the bundled sample (1,785 messages) through the same loop. Targets: at most 1.5x
the sample's time per message and 2x its peak memory (tracemalloc): reading and
rebuilding one's own history adds little to the replay itself. Median of 3 trials
(``judging.py``); exits 1 on a miss.
"""

from __future__ import annotations

import functools
import sqlite3
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

from judging import Target, judge, median_ratio

from hermes_core import ContextHost, load_config
from hermes_core._discovery import discover
from hermes_core.hermes_agent.sessions import rebuild, session_rows
from hermes_core.hermes_agent.sessions._probes import find_probes
from hermes_core.hermes_agent.sessions._scoring import score_engine
from hermes_core.testing._conversations import coding_session

MESSAGES = 2_000
WINDOW = 32_000
TRIALS = 3
SUMMARY = "[CONTEXT COMPACTION — REFERENCE ONLY] Earlier turns were compacted."


def _store(folder: Path) -> Path:
    """A schema-22 store holding one 2,000-message session compacted in place twice."""
    path = folder / "state.db"
    db = sqlite3.connect(path)
    db.executescript(
        "CREATE TABLE schema_version (version INTEGER NOT NULL);"
        "INSERT INTO schema_version VALUES (22);"
        "CREATE TABLE sessions (id TEXT PRIMARY KEY, source TEXT, model TEXT, title TEXT,"
        " parent_session_id TEXT, started_at REAL, end_reason TEXT, input_tokens INTEGER,"
        " output_tokens INTEGER);"
        "INSERT INTO sessions VALUES ('bench', 'cli', 'm', NULL, NULL, 1, NULL, 0, 0);"
        "CREATE TABLE messages (id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT,"
        " role TEXT, content TEXT, tool_call_id TEXT, tool_calls TEXT, tool_name TEXT,"
        " timestamp REAL, active INTEGER, compacted INTEGER);"
    )
    said = [
        f"Turn {n}: look at src/mod_{n}.py " + ("and tell me what it does " * 8)
        for n in range(MESSAGES // 2)
    ]
    sent = [
        m
        for text in said
        for m in (
            {"role": "user", "content": text},
            {"role": "assistant", "content": "Done: " + text},
        )
    ]

    def add(messages: list[dict[str, Any]], active: int, compacted: int) -> None:
        db.executemany(
            "INSERT INTO messages (session_id, role, content, timestamp, active, compacted)"
            " VALUES ('bench', ?, ?, 0, ?, ?)",
            [(m["role"], m["content"], active, compacted) for m in messages],
        )

    third = len(sent) // 3
    add(sent[:third], 0, 1)
    add([*sent[:3], {"role": "user", "content": SUMMARY}, *sent[third - 10 : third]], 0, 1)
    add(sent[third : 2 * third], 0, 1)
    add([*sent[:3], {"role": "user", "content": SUMMARY}, *sent[2 * third - 10 : 2 * third]], 1, 0)
    add(sent[2 * third :], 1, 0)
    db.commit()
    db.close()
    return path


def _host(engine: str, home: Path) -> ContextHost:
    config = load_config({"context": {"engine": engine}}, env={"HERMES_HOME": str(home)})
    return ContextHost(discover(config), env={"HERMES_HOME": str(home)})


def _scored(engine: str, conversation: Callable[[], list[dict[str, Any]]]) -> Callable[[], None]:
    """A run: the conversation made (read from the store, or generated), then scored
    through ``engine`` in a throwaway home."""

    def run() -> None:
        transcript = conversation()
        with tempfile.TemporaryDirectory() as scratch:
            host = _host(engine, Path(scratch))
            try:
                score_engine(host, transcript, WINDOW, find_probes(transcript))
            finally:
                host.close()

    return run


def _read(store: Path) -> list[dict[str, Any]]:
    """The session, read from the store and rebuilt."""
    _, rows = session_rows(store, "bench")
    transcript = rebuild(rows).messages
    assert len(transcript) == MESSAGES, len(transcript)
    return transcript


def _seconds(run: Callable[[], None]) -> float:
    start = time.perf_counter()
    run()
    return time.perf_counter() - start


def _peak(run: Callable[[], None]) -> float:
    tracemalloc.start()
    try:
        run()
        return float(tracemalloc.get_traced_memory()[1])
    finally:
        tracemalloc.stop()


def _times(
    ours: Callable[[], None], theirs: Callable[[], None], sample: int
) -> tuple[float, float]:
    return _seconds(ours) / MESSAGES, _seconds(theirs) / sample


def _peaks(ours: Callable[[], None], theirs: Callable[[], None]) -> tuple[float, float]:
    return _peak(ours), _peak(theirs)


def main() -> int:
    sample = len(coding_session())
    targets, figures = [], {}
    with tempfile.TemporaryDirectory() as folder:
        store = _store(Path(folder))
        for engine in ("compressor", "lcm"):
            # the sample is made in its run, as the session is read in its own
            ours = _scored(engine, functools.partial(_read, store))
            theirs = _scored(engine, coding_session)
            per_message = median_ratio(TRIALS, functools.partial(_times, ours, theirs, sample))
            memory = median_ratio(TRIALS, functools.partial(_peaks, ours, theirs))
            seconds = _seconds(ours)
            figures[f"{engine}_seconds"] = f"{seconds:.1f} s"
            figures[f"{engine}_peak_mb"] = f"{_peak(ours) / 1e6:.0f} MB"
            print(f"{engine}: 2,000-message Hermes session replayed in {seconds:.1f} s")
            targets += [
                Target(f"{engine}, time per message against the sample's", per_message, 1.5),
                Target(f"{engine}, peak memory against the sample's", memory, 2.0),
            ]
    return judge(targets, source="bench_hermes_replay", figures=figures)


if __name__ == "__main__":
    sys.exit(main())

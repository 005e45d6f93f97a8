"""Crash safety (SIGKILL mid-compaction) and 16 concurrent sessions on one engine."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hermes_engine_lcm import LCMEngine

from hermes_core.testing._conversations import agent_turn, sample_conversation
from tests.lcm.sql import check_consistent, sql

CHILD = r"""
import sys, time
from hermes_engine_lcm import LCMEngine
sys.path.insert(0, sys.argv[2])
from hermes_core.testing._conversations import sample_conversation

class SlowLLM:
    def complete(self, messages, max_tokens=None):
        time.sleep(0.02)
        class Answer: text = "summary of those turns"
        return Answer()

settings = {"fresh_tail_messages": 4, "leaf_chunk_tokens": 200, "max_passes": 10_000,
            "deadline_seconds": 600}
engine = LCMEngine({"lcm": settings}, hermes_home=sys.argv[1], llm=SlowLLM())
engine.update_model("m", 100_000)
engine.on_turn_complete(sample_conversation(150))
print("ready", flush=True)
while True:
    engine.compress([], deadline=None)
    engine.update_model("m", 400)
"""


def check_store(path: Path, expected_messages: int) -> None:
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    check_consistent(db, expected_messages)
    db.close()


def wait_for_first_summary(path: Path, child: subprocess.Popen[str]) -> None:
    """Block until the child has committed a summary (it is compacting), or fail."""
    for _ in range(6_000):
        assert child.poll() is None, child.stderr.read() if child.stderr else "child exited"
        if path.exists():
            db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=30)
            try:
                if db.execute("SELECT COUNT(*) FROM summaries").fetchone()[0] > 0:
                    return
            except sqlite3.OperationalError:  # schema not created yet
                pass
            finally:
                db.close()
        time.sleep(0.01)
    raise AssertionError("the child wrote no summary within 60 s")


@pytest.mark.parametrize("delay", [0.0, 0.15, 0.6])
def test_a_kill_in_the_middle_of_compaction_loses_nothing(tmp_path: Path, delay: float) -> None:
    root = Path(__file__).parents[2]
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(tmp_path), str(root)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    path = tmp_path / "lcm" / "lcm.db"
    try:
        assert child.stdout is not None
        assert child.stdout.readline().strip() == "ready"
        wait_for_first_summary(path, child)  # compaction has begun: kill at some point in it
        time.sleep(delay)
    finally:
        os.kill(child.pid, signal.SIGKILL)
        child.wait()
    check_store(path, len(sample_conversation(150)))
    engine = LCMEngine({}, hermes_home=tmp_path)  # reopening works and ingestion goes on
    engine.on_turn_complete([*sample_conversation(150), *agent_turn(150)])
    check_store(path, len(sample_conversation(150)) + 4)


def test_sixteen_sessions_in_parallel_lose_nothing_and_see_only_their_own(
    make_lcm: Callable[..., LCMEngine],
) -> None:
    engine = make_lcm(context_length=3_000, fresh_tail_messages=6, leaf_chunk_tokens=400)
    errors: list[BaseException] = []
    histories: dict[str, list[dict[str, Any]]] = {}

    def run(number: int) -> None:
        session = f"session-{number}"
        history: list[dict[str, Any]] = [{"role": "system", "content": "agent"}]
        visible = list(history)
        try:
            for step in range(500):
                batch = [
                    {"role": "user", "content": f"ask {step} token{number}x"},
                    {"role": "assistant", "content": f"answer {step} for token{number}x"},
                ]
                history += batch
                visible += batch
                if step % 25 == 24:
                    visible = engine.compress(visible, session_id=session)
                else:
                    engine.on_turn_complete(visible, session_id=session)
        except BaseException as exc:
            errors.append(exc)
        histories[session] = history

    threads = [threading.Thread(target=run, args=(n,)) for n in range(16)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    db = sql(engine)
    for session, history in histories.items():
        rows = db.execute(
            "SELECT body FROM messages WHERE session_id = ? ORDER BY seq", (session,)
        ).fetchall()
        assert [json.loads(r[0]) for r in rows] == history
    assert db.execute("SELECT COUNT(*) FROM summaries").fetchone()[0] > 16
    for number in (0, 7, 15):
        other = (number + 1) % 16
        answer = json.loads(
            engine.handle_tool_call(
                "lcm_grep", {"query": f"token{other}x"}, session_id=f"session-{number}"
            )
        )
        assert answer["results"] == []
        own = json.loads(
            engine.handle_tool_call(
                "lcm_grep", {"query": f"token{number}x"}, session_id=f"session-{number}"
            )
        )
        assert own["results"]

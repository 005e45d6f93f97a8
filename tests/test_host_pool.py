"""The daemon pool that compression passes run on."""

from __future__ import annotations

import threading
from typing import Any

from hermes_core.host.passes import PassRunner
from hermes_core.host.pool import DaemonPool


def test_tasks_submitted_together_run_together_even_with_a_worker_idle() -> None:
    # One worker is idle after the warm-up task; three tasks that can finish only
    # when all three are running at once must each get a worker of their own.
    for _ in range(30):
        pool = DaemonPool(max_workers=4)
        assert pool.submit(lambda: "warm").result(timeout=5) == "warm"
        barrier = threading.Barrier(3, timeout=10)
        futures = [pool.submit(barrier.wait) for _ in range(3)]
        assert sorted(f.result(timeout=15) for f in futures) == [0, 1, 2]
        assert not barrier.broken


def test_no_more_workers_than_the_maximum_and_queued_work_still_runs() -> None:
    pool = DaemonPool(max_workers=2, name="bounded")
    release = threading.Event()
    blocked = [pool.submit(lambda: release.wait(10)) for _ in range(2)]
    queued = [pool.submit(lambda n=n: n * n) for n in range(5)]
    assert all(not f.done() for f in queued)  # both workers are busy
    names = {t.name for t in threading.enumerate() if t.name.startswith("bounded-")}
    assert len(names) <= 2
    release.set()
    assert [f.result(timeout=10) for f in blocked] == [True, True]
    assert [f.result(timeout=10) for f in queued] == [0, 1, 4, 9, 16]


def test_an_exception_lands_in_the_future_and_the_worker_lives_on() -> None:
    pool = DaemonPool(max_workers=1)

    def boom() -> None:
        raise ValueError("engine exploded")

    failing = pool.submit(boom)
    assert isinstance(failing.exception(timeout=5), ValueError)
    assert pool.submit(lambda: 42).result(timeout=5) == 42


def test_a_pass_that_timed_out_before_it_started_never_runs_and_frees_its_session() -> None:
    pool = DaemonPool(max_workers=1, name="saturated")
    release = threading.Event()
    pool.submit(lambda: release.wait(10))  # the only worker is stuck
    calls: list[str] = []

    def compress(messages: list[Any]) -> list[Any]:
        calls.append(messages[0]["content"])
        return messages

    runner = PassRunner(compress, pool)
    first = [{"role": "user", "content": "first"}]
    assert runner.run("s1", first, {}, timeout=0.2).outcome == "timeout"
    # the session is not left busy by a pass that never started
    second = [{"role": "user", "content": "second"}]
    assert runner.run("s1", second, {}, timeout=0.2).outcome == "timeout"
    release.set()
    third = [{"role": "user", "content": "third"}]
    outcome = runner.run("s1", third, {}, timeout=10)
    assert (outcome.outcome, outcome.messages) == ("compressed", third)
    assert calls == ["third"]

"""The daemon pool that compression passes run on."""

from __future__ import annotations

import functools
import threading
from typing import Any

from hermes_core.host._passes import PassRunner
from hermes_core.host._pool import DaemonPool


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
    queued = [pool.submit(functools.partial(pow, n, 2)) for n in range(5)]
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
        calls.append(messages[-1]["content"])
        return messages[-1:]  # the earlier answer folded away, the turn kept

    runner = PassRunner(compress, pool)
    earlier = {"role": "assistant", "content": "an earlier answer " * 20}
    first = [earlier, {"role": "user", "content": "first"}]
    assert runner.run("s1", first, {}, timeout=0.2).outcome == "pool_exhausted"
    # the session is not left busy by a pass that never started
    second = [earlier, {"role": "user", "content": "second"}]
    assert runner.run("s1", second, {}, timeout=0.2).outcome == "pool_exhausted"
    release.set()
    third = [earlier, {"role": "user", "content": "third"}]
    outcome = runner.run("s1", third, {}, timeout=10)
    assert (outcome.outcome, outcome.messages) == ("compressed", third[-1:])
    assert calls == ["third"]


class Hanging:
    """compress blocks until released; counts how many passes started."""

    def __init__(self, release: threading.Event) -> None:
        self.release = release
        self.started = 0

    def __call__(self, messages: list[Any], **_: Any) -> list[Any]:
        self.started += 1
        self.release.wait(60)
        return messages[-1:]


#: A bound that a pass hanging for ever always reaches, and that a worker thread always
#: starts within, however loaded the machine: "timeout" never turns into "never started".
STARTS = 5.0


def history() -> list[dict[str, Any]]:
    return [{"role": "user", "content": f"m{n}"} for n in range(4)]


def test_hung_passes_do_not_starve_healthy_hosts_sharing_the_pool() -> None:
    pool = DaemonPool(max_workers=4, name="shared-test")
    release = threading.Event()
    hung = Hanging(release)
    try:
        stuck = PassRunner(hung, pool)
        outcomes: list[Any] = []
        # concurrently, each with a bound far past a worker's start on a busy machine: a pass
        # that hangs reaches it whatever the machine's speed ("timeout", never "never started")
        runs = [
            threading.Thread(
                target=lambda n=n: outcomes.append(
                    stuck.run(f"s{n}", history(), {}, timeout=STARTS)
                )
            )
            for n in range(4)
        ]
        for run in runs:
            run.start()
        for run in runs:
            run.join(120)
        assert [o.outcome for o in outcomes] == ["timeout"] * 4
        assert hung.started == 4 and pool.stuck == 4
        healthy = PassRunner(lambda messages: messages[-1:], pool)
        result = healthy.run("other", history(), {}, timeout=30)
        assert result.outcome == "compressed"  # a new worker took a stuck one's place
    finally:
        release.set()


def test_a_pass_that_never_started_is_pool_exhausted_not_the_engines_timeout() -> None:
    pool = DaemonPool(max_workers=1, name="exhausted-test", max_stuck=0)
    release = threading.Event()
    try:
        stuck = PassRunner(Hanging(release), pool)
        assert stuck.run("a", history(), {}, timeout=STARTS).outcome == "timeout"
        healthy = PassRunner(lambda messages: messages[-1:], pool)
        outcome = healthy.run("b", history(), {}, timeout=0.3)  # no worker: never starts
        assert outcome.outcome == "pool_exhausted"
        assert "never started" in outcome.detail
    finally:
        release.set()


def test_a_replaced_worker_that_finishes_leaves_instead_of_overfilling_the_pool() -> None:
    pool = DaemonPool(max_workers=1, name="leaving-test")
    release = threading.Event()
    runner = PassRunner(Hanging(release), pool)
    assert runner.run("a", history(), {}, timeout=STARTS).outcome == "timeout"
    done = PassRunner(lambda messages: messages[-1:], pool).run("b", history(), {}, timeout=30)
    assert done.outcome == "compressed"
    release.set()
    for _ in range(3000):  # the stuck worker finishes its task, then leaves
        if pool.stuck == 0:
            break
        threading.Event().wait(0.01)
    assert pool.stuck == 0
    workers = {t.name for t in threading.enumerate() if t.name.startswith("leaving-test-")}
    assert len(workers) <= pool.max_workers + 1  # the replacement, and at most the leaver


def test_a_task_submitted_right_after_shutdown_still_gets_a_worker() -> None:
    pool = DaemonPool(max_workers=2, name="after-shutdown")
    assert pool.submit(lambda: 1).result(timeout=10) == 1
    pool.shutdown()
    assert pool.submit(lambda: 2).result(timeout=10) == 2  # before: queued behind a sentinel

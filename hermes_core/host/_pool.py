"""A pool of daemon threads for the engine calls of one host.

Each :class:`~hermes_core.host.ContextHost` has a pool of its own, so a hung
engine can never take a thread another host needs: 100 hung calls of one
host leave a second host in the same process untouched.

Daemon threads, unlike ``concurrent.futures.ThreadPoolExecutor`` workers,
never hold up interpreter exit, so an engine stuck past its timeout cannot
keep the agent process alive. Workers start on demand up to ``max_workers``.

A worker whose task the caller gave up on (:meth:`DaemonPool.abandon`, after a
timeout) stops counting towards ``max_workers`` and a new one may start in its
place, so hung engines cannot take healthy hosts down with them. At most
``max_stuck`` workers are replaced that way; past that bound a task waits for
a worker, and a caller whose task never started reports it as such.

A process forked from one with pools (a server that builds its host, then
forks workers) has none of their threads: in the child every pool forgets
its workers, its queue and its lock at once, and starts new workers on
demand, so a host built before ``fork()`` serves in the child as in the parent.
"""

from __future__ import annotations

import contextvars
import os
import queue
import threading
import weakref
from collections.abc import Callable
from concurrent.futures import Future
from functools import partial
from typing import Any, TypeVar

__all__ = ["DaemonPool", "host_pool"]

T = TypeVar("T")


class DaemonPool:
    """Runs callables on daemon worker threads and hands back ``Future`` objects."""

    def __init__(
        self, max_workers: int, name: str = "hermes-pass", max_stuck: int | None = None
    ) -> None:
        self.max_workers = max_workers
        #: How many workers stuck in abandoned tasks may be replaced at one time.
        self.max_stuck = 4 * max_workers if max_stuck is None else max_stuck
        self._name = name
        self._started = 0
        self._forget_workers()
        _pools.add(self)

    def _forget_workers(self) -> None:
        """No worker, no task, a new lock: a new pool's state, and a forked child's (its
        parent's threads, and whatever they held, are not in the child)."""
        self._stuck = 0
        self._running: set[Future[Any]] = set()
        self._abandoned: set[Future[Any]] = set()
        self._tasks: queue.SimpleQueue[tuple[Any, Any]] = queue.SimpleQueue()
        self._lock = threading.Lock()
        self._workers = 0
        # Workers free to take a task (including those still starting), and tasks
        # not yet taken: a task gets a new worker unless a free one is left over
        # for it, so tasks submitted together never queue behind one idle worker.
        self._free = 0
        self._waiting = 0

    def submit(self, function: Callable[[], T]) -> Future[T]:
        """Schedule ``function()``; its result or exception lands in the returned future.

        It runs in a copy of the caller's :mod:`contextvars` context, as an
        inline call would.
        """
        future: Future[T] = Future()
        context = contextvars.copy_context()
        with self._lock:
            self._waiting += 1
            if self._waiting > self._free and self._workers < self.max_workers:
                self._workers += 1
                self._free += 1
                self._started += 1
                threading.Thread(
                    target=self._work, name=f"{self._name}-{self._started}", daemon=True
                ).start()
        self._tasks.put((future, partial(context.run, function)))
        return future

    def abandon(self, future: Future[Any]) -> bool:
        """The caller stopped waiting for ``future``'s task; returns whether its worker was
        replaced (it was running, and fewer than ``max_stuck`` workers are stuck)."""
        with self._lock:
            if future not in self._running or self._stuck >= self.max_stuck:
                return False
            self._running.discard(future)
            self._abandoned.add(future)
            self._workers -= 1
            self._stuck += 1
            return True

    def shutdown(self) -> None:
        """Let idle workers leave; a worker busy in a task leaves when the task ends. Tasks
        submitted afterwards still run (a worker is started for them)."""
        with self._lock:
            # the leaving workers stop counting now, so a task submitted next gets a worker
            # of its own: whichever worker takes a sentinel leaves, the counts stay right
            idle = self._free - self._waiting
            if idle <= 0:
                return
            self._free -= idle
            self._workers -= idle
        for _ in range(idle):
            self._tasks.put((None, None))

    @property
    def stuck(self) -> int:
        """Workers still running a task their caller abandoned."""
        return self._stuck

    def _work(self) -> None:
        while True:
            future, function = self._tasks.get()
            if future is None:  # shutdown: a worker leaves (counted out already)
                return
            with self._lock:
                self._free -= 1
                self._waiting -= 1
            if future.set_running_or_notify_cancel():
                with self._lock:
                    self._running.add(future)
                try:
                    future.set_result(function())
                except BaseException as exc:  # the caller decides what an engine failure means
                    future.set_exception(exc)
            with self._lock:
                self._running.discard(future)
                if future in self._abandoned:  # this worker was replaced while it was stuck
                    self._abandoned.discard(future)
                    self._stuck -= 1
                    if self._workers >= self.max_workers:
                        return  # its place is taken: leave
                    self._workers += 1
                self._free += 1


#: Every live pool of the process, for the child of a fork.
_pools: weakref.WeakSet[DaemonPool] = weakref.WeakSet()


def _after_fork_in_child() -> None:
    for pool in list(_pools):
        pool._forget_workers()


os.register_at_fork(after_in_child=_after_fork_in_child)


def host_pool() -> DaemonPool:
    """A new pool for one host: up to ``max(4, 2 x CPUs)`` workers."""
    return DaemonPool(max_workers=max(4, (os.cpu_count() or 1) * 2))

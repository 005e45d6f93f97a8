"""The one thread of a process that runs the model's native code (the tokenizer and BLAS).

OpenBLAS keeps a slot of memory for each thread that ever called it, up to a number fixed
when it was built: a process that encodes from thread after thread (an embedding worker
per engine, a pool thread per request, a thread per model load) runs past that number,
and then corrupts its heap. And a thread still inside OpenBLAS when the interpreter exits
can leave the exit waiting on OpenBLAS's own threads. So every encoding of the process
runs here, on one thread that outlives the engines:

- :func:`run` runs a function on it and returns what it returned (or raises what it
  raised); called from that thread, it runs the function at once. An ``urgent`` job (a
  query an agent waits for) goes before the others (the background worker's batches),
  each of which is small: a query waits for one batch at most, and never more than
  :data:`URGENT_WAIT_SECONDS` (a thread stuck in a job makes the query a
  :class:`NativeBusy`, and ranking goes on by keywords).
- The thread is not a daemon: when the main thread has ended (the interpreter is
  exiting), it finishes the job in hand, fails the jobs still queued with
  :class:`ProcessExiting` and ends, so that the interpreter never finalizes with a
  thread inside native code. It checks every :data:`POLL_SECONDS` while idle.
- A forked child starts with no such thread; its first job starts one.
"""

from __future__ import annotations

import itertools
import os
import queue
import threading
from collections.abc import Callable
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from typing import Any, TypeVar

from hermes_engine_lcm.errors import NativeBusy, ProcessExiting

__all__ = [
    "POLL_SECONDS",
    "URGENT_WAIT_SECONDS",
    "NativeBusy",
    "ProcessExiting",
    "exiting",
    "run",
]

T = TypeVar("T")

#: How often the idle thread looks whether the main thread has ended.
POLL_SECONDS = 0.2
#: The longest an urgent job waits for its answer.
URGENT_WAIT_SECONDS = 10.0


#: A job: its rank (0 urgent, 1 not), its number (first come, first served within a
#: rank), its future, the function and its arguments.
_Job = tuple[int, int, "Future[Any]", Callable[..., Any], tuple[Any, ...]]
_jobs: queue.PriorityQueue[_Job] = queue.PriorityQueue()
_numbers = itertools.count()
_thread: threading.Thread | None = None
_lock = threading.Lock()


def exiting() -> bool:
    """Whether the main thread has ended (jobs are no longer run)."""
    return not threading.main_thread().is_alive()


def run(function: Callable[..., T], *args: Any, urgent: bool = False) -> T:
    """``function(*args)`` on the process's native thread; what it returns or raises.
    ``urgent`` jobs go first. :class:`ProcessExiting` once the main thread has ended."""
    if threading.current_thread() is _thread:
        return function(*args)
    if exiting():
        raise ProcessExiting("the process is exiting: nothing more is encoded")
    future: Future[T] = Future()
    _jobs.put((0 if urgent else 1, next(_numbers), future, function, args))
    _started()
    if not urgent:
        return future.result()
    try:
        return future.result(URGENT_WAIT_SECONDS)
    except FutureTimeout:
        future.cancel()  # not run, if it had not started
        raise NativeBusy(
            f"the model's thread gave no answer in {URGENT_WAIT_SECONDS:g} s"
        ) from None


def _started() -> None:
    global _thread
    with _lock:
        if _thread is None or not _thread.is_alive():
            _thread = threading.Thread(target=_serve, name="lcm-native", daemon=False)
            _thread.start()


def _serve() -> None:
    while True:
        try:
            _, _, future, function, args = _jobs.get(timeout=POLL_SECONDS)
        except queue.Empty:
            if exiting():
                return
            continue
        if not future.set_running_or_notify_cancel():
            continue  # cancelled while it waited (an urgent job past its wait)
        if exiting():
            future.set_exception(ProcessExiting("the process is exiting: nothing more is encoded"))
            continue
        try:
            future.set_result(function(*args))
        except BaseException as exc:  # a tokenizer's panic is no Exception: handed back
            future.set_exception(exc)


def _after_fork_in_child() -> None:
    """The child has the parent's queue object but no thread serving it: start afresh."""
    global _jobs, _thread, _lock
    _jobs = queue.PriorityQueue()
    _thread = None
    _lock = threading.Lock()


os.register_at_fork(after_in_child=_after_fork_in_child)

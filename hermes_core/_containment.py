"""What engine and plugin code may not do to the agent: end it.

Every call into an engine or a plugin catches :class:`BaseException`, so
``sys.exit()``, ``SystemExit``, ``GeneratorExit`` and a ``KeyboardInterrupt``
raised by engine code are contained like any other failure (logged, counted,
fail-open). The one exception: a ``KeyboardInterrupt`` that arrives in the
main thread while the engine runs there inline is the user pressing Ctrl-C
(Python delivers signals to the main thread only), and it is re-raised, so the
user can always stop the agent. A ``KeyboardInterrupt`` from a pool thread
can only have been raised by code, and is contained.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

from hermes_core._errors import PluginTimeout

__all__ = [
    "PluginTimeout",
    "UserInterrupt",
    "call_with_limit",
    "reraise_user_interrupt",
    "watch_user_interrupts",
]

T = TypeVar("T")


class UserInterrupt(KeyboardInterrupt):
    """The user's Ctrl-C, raised by the handler :func:`watch_user_interrupts` installs."""


_watching = False


def _on_sigint(signum: int, frame: object) -> None:
    raise UserInterrupt()


@contextmanager
def watch_user_interrupts() -> Iterator[bool]:
    """Within the block, tell the user's Ctrl-C apart from a ``KeyboardInterrupt`` raised by
    code: SIGINT raises :class:`UserInterrupt`, and a plain KeyboardInterrupt is contained
    like any other failure. Installs a SIGINT handler for the block, so applications use it
    (the command line does), not the library; only in the main thread, and only over
    Python's default handler. Yields whether it is in force.
    """
    global _watching
    if (
        threading.current_thread() is not threading.main_thread()
        or signal.getsignal(signal.SIGINT) is not signal.default_int_handler
    ):
        yield _watching
        return
    signal.signal(signal.SIGINT, _on_sigint)
    _watching = True
    try:
        yield True
    finally:
        _watching = False
        signal.signal(signal.SIGINT, signal.default_int_handler)


def reraise_user_interrupt(exc: BaseException) -> None:
    """Re-raise ``exc`` if it is the user's Ctrl-C: a :class:`UserInterrupt`, or, unless
    :func:`watch_user_interrupts` is in force, any KeyboardInterrupt in the main thread."""
    if not isinstance(exc, KeyboardInterrupt):
        return
    if isinstance(exc, UserInterrupt):
        raise exc
    if not _watching and threading.current_thread() is threading.main_thread():
        raise exc


def call_with_limit(function: Callable[[], T], seconds: float, name: str) -> T:
    """``function()`` on a daemon thread of its own, waited for at most ``seconds``: its
    result, or what it raised (re-raised here), or :class:`PluginTimeout`.

    For code run once, such as a plugin's import and ``register``: a thread per
    call, so nothing is shared with the hosts' pools. ``seconds <= 0`` runs it
    inline, unbounded.
    """
    if seconds <= 0:
        return function()
    done = threading.Event()
    outcome: dict[str, Any] = {}

    def run() -> None:
        try:
            outcome["result"] = function()
        except BaseException as exc:  # the caller decides what it means
            outcome["error"] = exc
        finally:
            done.set()

    threading.Thread(target=run, name=f"hermes-{name}", daemon=True).start()
    if not done.wait(seconds):
        raise PluginTimeout(f"{name} did not return within {seconds:g} s")
    if "error" in outcome:
        raise outcome["error"]
    result: T = outcome["result"]
    return result

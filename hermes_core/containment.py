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

import threading

__all__ = ["reraise_user_interrupt"]


def reraise_user_interrupt(exc: BaseException) -> None:
    """Re-raise ``exc`` if it is the user's Ctrl-C (a KeyboardInterrupt in the main thread)."""
    if isinstance(exc, KeyboardInterrupt) and threading.current_thread() is threading.main_thread():
        raise exc

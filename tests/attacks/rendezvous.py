"""Events plugin code under attack waits on, so that tests can interleave two hosts' calls."""

from __future__ import annotations

import threading

#: Set by the first host's engine once it runs inside its pass.
first_inside = threading.Event()
#: Set by the second host's engine once it runs inside its pass.
second_inside = threading.Event()
#: Set by the first host's engine once its own thread has finished.
first_done = threading.Event()


def reset() -> None:
    first_inside.clear()
    second_inside.clear()
    first_done.clear()

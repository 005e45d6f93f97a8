"""Each session's standing instructions, for LCM: read from what the host hands, carried in
every request and every compacted history (see :class:`hermes_core.StandingInstructions`).

The ledgers of the most recently used :data:`KEPT_SESSIONS` sessions are kept; a session
dropped from memory reads its rules again from the block its compacted history holds and
from the messages handed next."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from hermes_core import StandingInstructions

__all__ = ["KEPT_SESSIONS", "SessionInstructions"]

#: Sessions whose ledgers stay in memory.
KEPT_SESSIONS = 1_024


class SessionInstructions:
    """Per-session :class:`~hermes_core.StandingInstructions`. Thread-safe."""

    def __init__(self, skip: Callable[[Any], bool]) -> None:
        self._skip = skip
        self._ledgers: OrderedDict[str, StandingInstructions] = OrderedDict()
        self._lock = threading.Lock()

    def of(self, session_id: str) -> StandingInstructions:
        """The session's ledger (made on first use)."""
        with self._lock:
            ledger = self._ledgers.get(session_id)
            if ledger is None:
                ledger = self._ledgers[session_id] = StandingInstructions()
                while len(self._ledgers) > KEPT_SESSIONS:
                    self._ledgers.popitem(last=False)
            else:
                self._ledgers.move_to_end(session_id)
            return ledger

    def observe(self, session_id: str, messages: Any) -> None:
        """Read what ``messages`` (a list the host handed) says of the session's rules."""
        if isinstance(messages, list):
            self.of(session_id).observe(messages, skip=self._skip)

    def forget(self, session_id: str) -> None:
        with self._lock:
            self._ledgers.pop(session_id, None)

"""Standing instructions kept apart per session: what one session's user said is carried in
that session's requests only, never in another's (one engine may serve many users).

The ledgers of the most recently used :data:`KEPT_SESSIONS` sessions are kept; a session
dropped from memory reads its rules again from the block its compacted history holds and
from the messages handed next."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from hermes_core.standing._ledger import StandingInstructions

__all__ = ["KEPT_SESSIONS", "SessionInstructions"]

#: Sessions whose ledgers stay in memory.
KEPT_SESSIONS = 1_024


class SessionInstructions:
    """One :class:`~hermes_core.StandingInstructions` per session. Thread-safe.

    ``skip`` names the messages an engine wrote itself (its summaries), which are never
    read as the user's words."""

    def __init__(self, skip: Callable[[Any], bool] | None = None) -> None:
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

    def observe(self, session_id: str, messages: Any) -> StandingInstructions:
        """Read what ``messages`` (a list the host handed) says of the session's rules; the
        session's ledger."""
        ledger = self.of(session_id)
        if isinstance(messages, list):
            ledger.observe(messages, skip=self._skip)
        return ledger

    def forget(self, session_id: str) -> None:
        """Drop the session's ledger (a reset: its rules are gone with its history)."""
        with self._lock:
            self._ledgers.pop(session_id, None)

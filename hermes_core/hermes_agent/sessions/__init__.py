"""Hermes Agent's own sessions, read from its store, to replay through our engines."""

from __future__ import annotations

from hermes_core.hermes_agent.sessions._store import (
    HermesSession,
    SessionStoreError,
    list_sessions,
    session_rows,
)
from hermes_core.hermes_agent.sessions._transcript import Transcript, rebuild

__all__ = [
    "HermesSession",
    "SessionStoreError",
    "Transcript",
    "list_sessions",
    "rebuild",
    "session_rows",
]

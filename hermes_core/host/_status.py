"""What the host reports: the engine's status with the host's figures, and the line shown
to the user as an automatic pass starts."""

from __future__ import annotations

from typing import Any

from hermes_core._containment import reraise_user_interrupt
from hermes_core._redaction import redact
from hermes_core.host._engine_calls import FAILED, EngineCalls

__all__ = ["compaction_status_message", "engine_status"]


def engine_status(calls: EngineCalls) -> dict[str, Any]:
    """The engine's ``get_status()`` as a new dict, bounded; on failure a dict that says
    what went wrong under ``engine_status_error``."""
    get_status = calls.methods["get_status"]

    def run() -> dict[str, Any]:
        try:
            return dict(get_status())
        except BaseException as exc:
            reraise_user_interrupt(exc)  # only ever true when run inline
            calls.failed("get_status", exc)
            return {"engine_status_error": f"{type(exc).__name__}: {exc}"}

    late = {"engine_status_error": "get_status did not answer in time"}
    status: dict[str, Any] = calls.bounded("get_status", run, late)
    return status


def compaction_status_message(
    calls: EngineCalls, phase: str, default_message: str, context: dict[str, Any]
) -> str | None:
    """The engine's line for ``phase``, inline: None when it keeps automatic passes
    silent or answers None, ``default_message`` when it fails or answers something
    other than text; redacted."""
    engine = calls.engine
    emit = calls.inline(
        "emit_automatic_compaction_status",
        lambda: bool(getattr(engine, "emit_automatic_compaction_status", True)),
        True,
    )
    if not emit:
        return None
    formatter = calls.methods["get_automatic_compaction_status_message"]
    result = calls.inline(
        "get_automatic_compaction_status_message",
        lambda: formatter(phase=phase, default_message=default_message, **context),
        FAILED,
    )
    if result is None:
        return None
    if result is FAILED or not isinstance(result, str):
        if result is not FAILED:
            calls.bad_result("get_automatic_compaction_status_message", result)
        result = default_message
    return redact(result.strip()) or None

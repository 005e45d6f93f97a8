"""The engine's answers to "should a pass run?" that are not on every response's hot path.

``should_compress`` itself, asked after every response, stays in
:class:`~hermes_core.ContextHost` (a try block there costs nothing when
nothing is raised; ``bench_host`` holds it to 2x a direct call). These are
asked less often; each is contained, and each answer that is not what the
hook declares counts as a failure and gives the host's default.
"""

from __future__ import annotations

from collections.abc import Callable

from hermes_core.hooks._types import Messages
from hermes_core.host._engine_calls import FAILED, EngineCalls
from hermes_core.messages import copy_messages

__all__ = [
    "has_content_to_compress",
    "should_compress_info",
    "should_compress_preflight",
    "should_defer_preflight_to_real_usage",
]

#: ``held(prompt_tokens)``: whether a backoff holds a pass the engine asks for.
Held = Callable[[int | None], bool]


def should_compress_info(
    calls: EngineCalls, held: Held, prompt_tokens: int | None
) -> tuple[bool, str | None]:
    """``(decision, reason)``; ``(False, "engine_error")`` when the engine fails or answers
    something else, ``(False, "backed_off")`` when a backoff holds the pass."""
    info = calls.methods["should_compress_info"]
    result = calls.inline("should_compress_info", lambda: info(prompt_tokens), FAILED)
    if result is FAILED:
        return False, "engine_error"
    if (
        isinstance(result, tuple)
        and len(result) == 2
        and isinstance(result[0], bool)
        and (result[1] is None or isinstance(result[1], str))
    ):
        if result[0] and held(prompt_tokens):
            return False, "backed_off"
        return result[0], result[1]
    calls.bad_result("should_compress_info", result)
    return False, "engine_error"


def should_compress_preflight(calls: EngineCalls, held: Held, messages: Messages) -> bool:
    """True only when the engine answers True and no backoff holds the pass."""
    preflight = calls.methods["should_compress_preflight"]
    asked = calls.inline(
        "should_compress_preflight", lambda: preflight(copy_messages(messages)), False
    )
    return asked is True and not held(None)


def should_defer_preflight_to_real_usage(calls: EngineCalls, rough_tokens: int) -> bool:
    """True only when the engine answers True."""
    defer = calls.methods["should_defer_preflight_to_real_usage"]
    return (
        calls.inline("should_defer_preflight_to_real_usage", lambda: defer(rough_tokens), False)
        is True
    )


def has_content_to_compress(calls: EngineCalls, messages: Messages) -> bool:
    """False only when the engine answers False (bounded; a failure means "attempt")."""
    check = calls.methods["has_content_to_compress"]
    result = calls.bounded("has_content_to_compress", lambda: check(copy_messages(messages)), True)
    return result is not False

"""An overriding engine's ``select_context`` as the host runs it: copies, the call, the check.

The host hands the engine copies of the request, its history and the
incoming message (each message copied once, however many of the lists it
stands in), and accepts the engine's answer only when it is ``None`` (keep
the request) or a non-empty list that is a valid message sequence. The whole
of it runs where the host's bound applies, on one thread: handing copies
from one core to another cost more than the hop itself.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hermes_core._engine import Message
from hermes_core.hooks._types import Messages
from hermes_core.host._engine_calls import FAILED, EngineCalls
from hermes_core.host._handed import HandedCopies
from hermes_core.messages import copy_message, validate_messages

__all__ = ["Rejected", "Selection", "selected"]


class Rejected:
    """A ``select_context`` answer that is not a valid message list."""

    __slots__ = ("value",)

    def __init__(self, value: object) -> None:
        self.value = value


class Selection:
    """One engine's ``select_context``, called on copies, its answer checked.

    Calling it returns the engine's list, ``None`` (the engine chose not to
    select), or a :class:`Rejected` holding what it returned instead.
    Exceptions propagate to the caller, which bounds and contains the call.
    """

    def __init__(
        self, select: Callable[..., Any], *, takes_session: bool, handed: HandedCopies
    ) -> None:
        self._select = select
        self.takes_session = takes_session
        self._handed = handed

    def __call__(
        self,
        request_messages: list[Message],
        conversation_messages: list[Message] | None,
        incoming_message: Message | None,
        budget_tokens: int,
        session_id: str | None,
    ) -> list[Message] | Rejected | None:
        request, history, incoming = copies(
            self._handed, session_id, request_messages, conversation_messages, incoming_message
        )
        keywords: dict[str, Any] = {
            "conversation_messages": history,
            "incoming_message": incoming,
            "budget_tokens": budget_tokens,
        }
        if self.takes_session:
            keywords["session_id"] = session_id
        sample = (request[0], request[-1]) if request else ()
        result = self._select(request, **keywords)
        if (
            result is request
            and len(result) == len(request_messages)
            and (not result or (result[0], result[-1]) == sample)
        ):
            # the list it was handed, as it was handed: the request itself, nothing to check
            return None
        if result is None or (
            result.__class__ is list and result and not validate_messages(result)
        ):
            return result
        return Rejected(result)


def _stands_in(history: list[Message], request: list[Message], offset: int) -> bool:
    """Whether ``history`` is ``request[offset:offset + len(history)]`` (the same objects,
    checked at its first, middle and last places)."""
    length = len(history)
    if not length or offset + length > len(request):
        return False
    return all(history[i] is request[offset + i] for i in {0, length // 2, length - 1})


def copies(
    handed: HandedCopies,
    session_id: str | None,
    request: list[Message],
    history: list[Message] | None,
    incoming: Message | None,
) -> tuple[list[Message], list[Message] | None, Message | None]:
    """Copies of a request, its history and the incoming message, each message object
    copied once (see :class:`~hermes_core.host._handed.HandedCopies`).

    Agents usually build the request as [system] + history + [incoming]; the
    history copy is then a slice of the request copy (checked by identity at a
    few places, as :class:`~hermes_core.host._handed.HandedCopies` checks a list),
    and a message that stands in several places stays one object.
    """
    request_copy = handed.copies((session_id, "request"), request)
    history_copy = None
    if history is not None:
        for offset in (0, 1):
            if _stands_in(history, request, offset):
                history_copy = request_copy[offset : offset + len(history)]
                break
        else:
            history_copy = handed.copies((session_id, "history"), history)
    incoming_copy = None
    if incoming is not None:
        incoming_copy = (
            request_copy[-1] if request and request[-1] is incoming else copy_message(incoming)
        )
    return request_copy, history_copy, incoming_copy


def selected(
    calls: EngineCalls,
    selection: Selection,
    request_messages: Messages,
    conversation_messages: Messages | None,
    incoming_message: Message | None,
    budget_tokens: int,
    session: str | None,
) -> Messages:
    """The engine's selection, bounded; ``request_messages`` on any failure (counted as
    ``select_context_fallbacks``) and when the engine keeps the request."""
    result = calls.bounded(
        "select_context",
        selection,
        FAILED,
        request_messages,
        conversation_messages,
        incoming_message,
        budget_tokens,
        session,
    )
    if result is None:  # the engine chose not to select this time
        return request_messages
    if result is FAILED:  # it raised or was late (logged and counted by bounded)
        calls.counters.add("select_context_fallbacks")
        return request_messages
    if result.__class__ is Rejected:
        calls.counters.add("select_context_fallbacks")
        calls.bad_result("select_context", result.value)
        return request_messages
    return result  # type: ignore[no-any-return]

"""The per-turn calls: ``on_turn_complete`` after a turn, ``prune_tool_results_only``
after a response; both skipped for an engine that keeps the base class's default.

The engine gets copies of the conversation, each message object copied once
per session while it stands where it stood (:mod:`hermes_core.host._handed`),
so the cost follows what is new, and nothing the engine does reaches the
caller's lists.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from hermes_core._log import logger
from hermes_core.hooks._types import Messages
from hermes_core.host._engine_calls import FAILED, EngineCalls
from hermes_core.host._handed import HandedCopies
from hermes_core.host._pruning import checked_prune
from hermes_core.host._usage import normalize_usage
from hermes_core.messages import copy_messages

__all__ = ["prune_tool_results", "turn_complete"]


def turn_complete(
    calls: EngineCalls,
    observe: Callable[..., Any],
    handed: HandedCopies,
    messages: Messages,
    usage: Mapping[str, Any] | None,
    session: str | None,
    meta: dict[str, Any],
) -> None:
    """``observe`` (the engine's ``on_turn_complete``) with a copy, bounded; the keywords
    it accepts among ``meta``, ``usage`` (normalised) and ``session_id``."""
    offered = {**meta, "usage": usage, "session_id": session}
    keywords = calls.keywords("on_turn_complete", offered)

    def run() -> None:  # the copy is made where the bound applies, like the call
        if "usage" in keywords and usage is not None:
            keywords["usage"] = normalize_usage(usage)
        observe(handed.copies((session, "turn"), messages), **keywords)

    calls.bounded("on_turn_complete", run, None)


def prune_tool_results(
    calls: EngineCalls,
    prune: Callable[..., Any],
    handed: HandedCopies,
    messages: Messages,
    current_tokens: int | None,
    session: str | None,
) -> tuple[Messages, int]:
    """``prune`` (the engine's ``prune_tool_results_only``) on copies, bounded; the caller's
    own copy of an accepted prune, else ``(messages, 0)`` with the very list."""
    offered = {"current_tokens": current_tokens, "session_id": session}
    keywords = calls.keywords("prune_tool_results_only", offered)
    # asked after every response: the copies are made once per message, as for
    # turn_complete (see hermes_core.host._handed)
    copies = handed.copies((session, "prune"), messages)
    result = calls.bounded("prune_tool_results_only", prune, FAILED, copies, **keywords)
    if result is FAILED:  # it raised or was late (logged and counted by bounded)
        calls.counters.add("prune_fallbacks")
        return messages, 0
    checked = checked_prune(result, copies)
    if isinstance(checked, str):
        calls.bad_result("prune_tool_results_only", result, checked)
        calls.counters.add("prune_fallbacks")
        return messages, 0
    if checked is None:  # nothing was worth pruning
        return messages, 0
    calls.counters.add("prunes")
    logger.info(
        "context_engine.pruned",
        engine=calls.name,
        session_id=session,
        messages_pruned=checked.count,
        before_tokens=checked.before_tokens,
        after_tokens=checked.after_tokens,
    )
    # the host keeps its copies for the next call: the caller gets messages of its own
    # (an accepted prune is rare; asking is not)
    return copy_messages(checked.messages), checked.count

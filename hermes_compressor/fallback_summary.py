"""The deterministic summary used when no LLM is configured or the summariser fails."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from hermes_compressor.pruning import descriptor
from hermes_core import render_turns, text_of

__all__ = ["MAX_FALLBACK_CHARS", "fallback_summary"]

MAX_FALLBACK_CHARS = 8_000
_PATH = re.compile(r"(?<![\w/])(?:[\w.\-]+/)*[\w\-]+\.[A-Za-z0-9]{1,6}\b")
_BLOCKER = ("error", "traceback", "exception", "failed", "denied", "not found")


def _clip(text: str, limit: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _recent(messages: Sequence[dict[str, Any]]) -> tuple[list[str], list[str], list[str]]:
    """The latest actions, blockers and files, newest last, reading back only as far as needed."""
    wanted_actions, wanted_blockers, wanted_files = 25, 5, 40
    results: list[dict[str, Any]] = []
    blockers: list[str] = []
    for message in reversed(messages):
        if message.get("role") != "tool":
            continue
        content = text_of(message)
        if len(results) < wanted_actions:
            results.append(message)
        if len(blockers) < wanted_blockers and any(m in content[:300].lower() for m in _BLOCKER):
            blockers.append(_clip(content, 200))
        if len(results) >= wanted_actions and len(blockers) >= wanted_blockers:
            break
    pending = {m.get("tool_call_id") for m in results}
    functions: dict[Any, Any] = {}
    files: dict[str, None] = {}
    for message in reversed(messages):
        for call in reversed(message.get("tool_calls") or ()):
            if not isinstance(call, dict):
                continue
            function = call.get("function") or {}
            if call.get("id") in pending:
                functions[call.get("id")] = function
            arguments = function.get("arguments") if isinstance(function, dict) else None
            if isinstance(arguments, str) and len(files) < wanted_files:
                for path in reversed(_PATH.findall(arguments)):
                    files.setdefault(path, None)
        if len(files) >= wanted_files and len(functions) >= len(pending):
            break
    actions = [
        descriptor(text_of(m), functions.get(m.get("tool_call_id"))).removeprefix(
            "[pruned tool result] "
        )
        for m in reversed(results)
    ]
    return actions, blockers[::-1], list(files)[:wanted_files][::-1]


def fallback_summary(
    turns: Sequence[Any], previous_summary: str | None, max_chars: int = MAX_FALLBACK_CHARS
) -> str:
    """Latest user ask, completed actions, files, blockers and the last dropped turns.

    Built from the turns alone, at most ``max_chars`` characters (and never more than
    :data:`MAX_FALLBACK_CHARS`): the compressor scales it with the window.
    """
    limit = max(16, min(max_chars, MAX_FALLBACK_CHARS))
    messages = [m for m in turns if isinstance(m, dict)]
    ask = next(
        (text_of(m) for m in reversed(messages) if m.get("role") == "user" and text_of(m).strip()),
        None,
    )
    actions, blockers, files = _recent(messages)
    sections = []
    if previous_summary:
        sections.append("## Earlier summary\n" + _clip(previous_summary, 2_000))
    sections.append("## Latest user ask\n" + (_clip(ask, 600) if ask else "None"))
    sections.append("## Completed actions\n" + ("\n".join(f"- {a}" for a in actions) or "None"))
    sections.append("## Relevant files\n" + (", ".join(files) if files else "None"))
    sections.append("## Blocked\n" + ("\n".join(f"- {b}" for b in blockers) or "None"))
    sections.append("## Last dropped turns\n" + _clip(render_turns(messages[-4:]), 1_500))
    text = "\n\n".join(sections)
    return text if len(text) <= limit else text[: limit - 3] + "..."

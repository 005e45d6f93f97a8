"""The deterministic summary used when no LLM is configured or the summariser fails."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from hermes_compressor.pruning import descriptor
from hermes_compressor.summary_prompt import render_turns

__all__ = ["MAX_FALLBACK_CHARS", "fallback_summary"]

MAX_FALLBACK_CHARS = 8_000
_PATH = re.compile(r"(?<![\w/])(?:[\w.\-]+/)*[\w\-]+\.[A-Za-z0-9]{1,6}\b")
_BLOCKER = ("error", "traceback", "exception", "failed", "denied", "not found")


def _text(message: dict[str, Any]) -> str:
    content = message.get("content")
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return " ".join(p.get("text", "") for p in content if isinstance(p, dict))
    return ""


def _clip(text: str, limit: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def fallback_summary(turns: Sequence[Any], previous_summary: str | None) -> str:
    """Latest user ask, completed actions, files, blockers and the last dropped turns.

    Built from the turns alone, at most :data:`MAX_FALLBACK_CHARS` characters.
    """
    messages = [m for m in turns if isinstance(m, dict)]
    asks = [_text(m) for m in messages if m.get("role") == "user" and _text(m).strip()]
    functions: dict[Any, Any] = {}
    actions: list[str] = []
    blockers: list[str] = []
    files: dict[str, None] = {}
    for message in messages:
        for call in message.get("tool_calls") or ():
            if isinstance(call, dict):
                functions[call.get("id")] = call.get("function")
                arguments = (call.get("function") or {}).get("arguments")
                if isinstance(arguments, str):
                    files.update(dict.fromkeys(_PATH.findall(arguments)))
        if message.get("role") == "tool":
            content = _text(message)
            line = descriptor(content, functions.get(message.get("tool_call_id")))
            actions.append(line.removeprefix("[pruned tool result] "))
            if any(marker in content[:300].lower() for marker in _BLOCKER):
                blockers.append(_clip(content, 200))
    sections = []
    if previous_summary:
        sections.append("## Earlier summary\n" + _clip(previous_summary, 2_000))
    sections.append("## Latest user ask\n" + (_clip(asks[-1], 600) if asks else "None"))
    sections.append(
        "## Completed actions\n" + ("\n".join(f"- {a}" for a in actions[-25:]) or "None")
    )
    sections.append("## Relevant files\n" + (", ".join(list(files)[-40:]) if files else "None"))
    sections.append("## Blocked\n" + ("\n".join(f"- {b}" for b in blockers[-5:]) or "None"))
    sections.append("## Last dropped turns\n" + _clip(render_turns(messages[-4:]), 1_500))
    text = "\n\n".join(sections)
    return text if len(text) <= MAX_FALLBACK_CHARS else text[: MAX_FALLBACK_CHARS - 3] + "..."

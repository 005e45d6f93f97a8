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


#: The sections of a fallback summary, in order.
_SECTIONS = ("Latest user ask", "Completed actions", "Relevant files", "Blocked")
_HEADING = re.compile(r"^## (.+)$", re.MULTILINE)
#: Items of each list a summary keeps, the newest.
_KEPT = {"Completed actions": 25, "Relevant files": 40, "Blocked": 5}


def _parse(summary: str) -> tuple[dict[str, str], str]:
    """The sections of an earlier fallback summary by heading, and what it says outside
    them (an LLM's summary, or text before the first heading)."""
    headings = list(_HEADING.finditer(summary))
    if not headings:
        return {}, summary.strip()
    sections = {}
    for at, heading in enumerate(headings):
        end = headings[at + 1].start() if at + 1 < len(headings) else len(summary)
        sections[heading.group(1).strip()] = summary[heading.end() : end].strip()
    return sections, summary[: headings[0].start()].strip()


def _items(body: str | None, separator: str) -> list[str]:
    if not body or body == "None":
        return []
    parts = body.split("\n") if separator == "\n" else body.split(separator)
    return [p.strip().removeprefix("- ") for p in parts if p.strip()]


def _folded(earlier: list[str], newer: list[str], keep: int) -> list[str]:
    """The newest ``keep`` of ``earlier`` then ``newer``, each once, oldest first."""
    merged = list(dict.fromkeys([*earlier, *newer]).keys())
    return merged[-keep:]


def fallback_summary(
    turns: Sequence[Any], previous_summary: str | None, max_chars: int = MAX_FALLBACK_CHARS
) -> str:
    """Latest user ask, completed actions, files, blockers and the last dropped turns.

    Built from the turns alone, at most ``max_chars`` characters (and never more than
    :data:`MAX_FALLBACK_CHARS`): the compressor scales it with the window. A summary of
    summaries folds, never nests: an earlier fallback summary's lists are merged with this
    one's, the newest items kept, so pass after pass the summary stays one summary of
    bounded size; text of another kind (an LLM's summary) is kept once, clipped, as the
    earlier summary. Past ``max_chars`` the oldest material gives way first.
    """
    limit = max(16, min(max_chars, MAX_FALLBACK_CHARS))
    messages = [m for m in turns if isinstance(m, dict)]
    ask = next(
        (text_of(m) for m in reversed(messages) if m.get("role") == "user" and text_of(m).strip()),
        None,
    )
    actions, blockers, files = _recent(messages)
    earlier, prose = _parse(previous_summary or "")
    prose = prose or earlier.get("Earlier summary", "")
    actions = _folded(_items(earlier.get("Completed actions"), "\n"), actions, 25)
    files = _folded(_items(earlier.get("Relevant files"), ", "), files, 40)
    blockers = _folded(_items(earlier.get("Blocked"), "\n"), blockers, 5)
    if ask is None and earlier.get("Latest user ask") not in (None, "None"):
        ask = earlier["Latest user ask"]
    dropped = _clip(render_turns(messages[-4:]), 1_500)
    while True:
        sections = ["## Earlier summary\n" + _clip(prose, 2_000)] if prose else []
        sections.append("## Latest user ask\n" + (_clip(ask, 600) if ask else "None"))
        sections.append("## Completed actions\n" + ("\n".join(f"- {a}" for a in actions) or "None"))
        sections.append("## Relevant files\n" + (", ".join(files) if files else "None"))
        sections.append("## Blocked\n" + ("\n".join(f"- {b}" for b in blockers) or "None"))
        sections.append("## Last dropped turns\n" + dropped)
        text = "\n\n".join(sections)
        if len(text) <= limit:
            return text
        # the oldest give way first: the earlier prose, then the oldest actions and files
        if prose:
            prose = ""
        elif len(actions) > 1:
            actions = actions[len(actions) // 2 :]
        elif len(files) > 1:
            files = files[len(files) // 2 :]
        else:
            return text[: limit - 3] + "..."

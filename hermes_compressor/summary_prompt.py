"""What the summariser is asked: a structured template, an update of the earlier summary."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from hermes_core import redact, render_turns

__all__ = ["SECTIONS", "build_prompt"]

SECTIONS = (
    "Goal",
    "Constraints and preferences",
    "Completed actions",
    "Active state",
    "Blocked",
    "Key decisions",
    "Resolved questions",
    "Pending user asks",
    "Relevant files",
    "Remaining work",
    "Critical context",
)

#: Upper bound on the turns sent to the summariser, so a model with a smaller
#: window than the main model is never overflowed; the newest turns are kept.
MAX_INPUT_CHARS = 120_000

_SYSTEM = (
    "You compress the middle of an AI agent's conversation into a reference summary that "
    "replaces those turns. The agent will continue from your summary alone, so keep every "
    "fact it needs: names, paths, numbers, commands, errors and decisions. Write these "
    "sections as Markdown headings, in this order, with 'None' where nothing applies:\n"
    + "\n".join(f"## {section}" for section in SECTIONS)
)


def build_prompt(
    turns: Sequence[Any],
    previous_summary: str | None,
    focus_topic: str | None,
    target_tokens: int,
) -> list[dict[str, str]]:
    """The chat messages for one summary request; secrets are redacted from all of it."""
    rendered = render_turns(turns)
    omitted = ""
    if len(rendered) > MAX_INPUT_CHARS:
        rendered = rendered[-MAX_INPUT_CHARS:]
        omitted = "(The oldest of these turns were cut to fit; rely on the earlier summary.)\n"
    parts = []
    if previous_summary:
        parts.append(
            "Here is the earlier summary. Update it with the new turns below: keep what "
            "still holds, change what the new turns change, and do not start over.\n\n"
            f"<earlier_summary>\n{previous_summary}\n</earlier_summary>"
        )
    parts.append(f"<new_turns>\n{omitted}{rendered}\n</new_turns>")
    if focus_topic:
        parts.append(
            f"Focus: spend most of the summary (about 60%) on everything related to "
            f"'{focus_topic}'; cover the rest briefly."
        )
    parts.append(f"Write the summary in at most about {target_tokens} tokens.")
    return [
        {"role": "system", "content": _SYSTEM},
        {"role": "user", "content": redact("\n\n".join(parts))},
    ]

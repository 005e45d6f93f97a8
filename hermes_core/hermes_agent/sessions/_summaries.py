"""What a compaction wrote into a Hermes store, told apart from the conversation.

A compaction pass leaves rows no person wrote: the summary, and, from an engine
of ours, the block of standing instructions it carries. They are found by what
Hermes records and by the engines' own markers:

- Hermes 0.22 flags its summary row (``_compressed_summary = 1``);
- every summary begins with its engine's marker: Hermes' ``[CONTEXT COMPACTION
  ...`` (since 0.19) or ``[CONTEXT SUMMARY]:`` (before), ours ``[Context
  summary]`` (compressor) and ``[LCM summary of earlier turns]`` (LCM), and any
  engine's that follows the same convention, a bracketed label naming a summary
  (:func:`hermes_core.engine_written`), or that the caller names (an installed
  engine's ``summary_markers``);
- when Hermes 0.19 had to merge a summary with the turn before it (to keep
  roles alternating) it wraps that turn as ``[PRIOR CONTEXT ...]`` followed by
  the summary: the whole row is compaction output, the turn inside it a copy of
  one already stored;
- a ``system`` row that begins with the standing-instructions header is an
  engine's block: carried from the user's own words, which the store holds.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from hermes_core.messages._provenance import engine_written
from hermes_core.standing._block import is_block

__all__ = ["SUMMARY_CANDIDATE_LIKE", "is_engine_block", "is_summary"]

#: A row that can be a summary begins with "[" (or is flagged): the SQL ``LIKE`` that
#: finds the candidates, whose first characters :func:`is_summary` then reads.
SUMMARY_CANDIDATE_LIKE = "[%"


def is_summary(row: Mapping[str, Any], markers: Iterable[str] = ()) -> bool:
    """Whether a stored row is a compaction summary (or holds one), Hermes' or an engine's
    (``markers``: more engines' own, beside the ones every reader knows)."""
    if row.get("_compressed_summary"):
        return True
    if row.get("role") not in ("user", "assistant", None):
        return False
    content = row.get("content")
    if not isinstance(content, str):
        return False
    return engine_written({"content": content}, markers)


def is_engine_block(row: Mapping[str, Any]) -> bool:
    """Whether a stored row is an engine's block of standing instructions."""
    return is_block({"role": row.get("role"), "content": row.get("content")})

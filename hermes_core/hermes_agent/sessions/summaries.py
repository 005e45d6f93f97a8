"""Hermes Agent's own compaction summaries, as its store holds them.

Hermes 0.22 flags a summary row (``_compressed_summary = 1``). Every release
starts the summary with a fixed prefix (``[CONTEXT COMPACTION ...`` since
0.19, ``[CONTEXT SUMMARY]:`` before), and when the summary had to share a
message with the turn before it (to keep roles alternating) 0.19 wraps that
turn as ``[PRIOR CONTEXT ...]`` followed by the summary: the whole row is
compaction output, the turn inside it a copy of one already stored.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["SUMMARY_LIKE", "is_summary"]

_STARTS = ("[CONTEXT COMPACTION", "[CONTEXT SUMMARY]:")
_MERGED = "[END OF PRIOR CONTEXT — COMPACTION SUMMARY BELOW]"
#: The same tests as SQL ``LIKE`` patterns, for counting summaries in the store.
SUMMARY_LIKE = (*(f"{start}%" for start in _STARTS), f"%{_MERGED}%")


def is_summary(row: Mapping[str, Any]) -> bool:
    """Whether a stored row is Hermes' compaction summary (or holds one)."""
    if row.get("_compressed_summary"):
        return True
    content = row.get("content")
    if not isinstance(content, str):
        return False
    return content.startswith(_STARTS) or (
        content.startswith("[PRIOR CONTEXT") and _MERGED in content
    )

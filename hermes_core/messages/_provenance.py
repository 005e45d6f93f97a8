"""Whose words a message holds: the user's own, or text that only passes through.

Only the user's own words may set what an engine carries on their behalf (a
standing instruction). A message holds them when its role is ``user`` and no
engine wrote it: an engine's summary, stub or note is often stored as a
``user`` row (Hermes Agent stores its own summaries that way, and so do ours),
and what it paraphrases came from tool results and replies as much as from
the user. Everything else is data, whatever it says or imitates:

- ``tool`` results (a web page, a file, a retrieved passage, an engine tool's
  answer), ``assistant`` replies (the model's words), ``developer`` and
  ``function`` messages;
- ``user`` rows an engine wrote, recognised by the marker they begin with:
  :data:`ENGINE_MARKERS` (Hermes Agent's compaction summaries), the markers an
  engine names for its own, and the convention every engine we know follows:
  a bracketed label naming a summary or a compaction
  (``[Context summary] ...``, ``[LCM summary of earlier turns] ...``,
  ``[CONTEXT COMPACTION — REFERENCE ONLY] ...``; see ``SUMMARY_LABEL``).

``system`` messages are the integrator's: no tool, page or model writes one.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from hermes_core.messages._text import text_of

__all__ = ["ENGINE_MARKERS", "SUMMARY_LABEL", "engine_written", "is_users_words"]

#: How Hermes Agent begins the summaries it stores as ``user`` rows (``[CONTEXT
#: COMPACTION ...`` since 0.19, ``[CONTEXT SUMMARY]:`` before).
ENGINE_MARKERS: tuple[str, ...] = ("[CONTEXT COMPACTION", "[CONTEXT SUMMARY]:")
#: A turn Hermes 0.19 had to merge with its summary: ``[PRIOR CONTEXT ...]``, the turn,
#: then this line and the summary.
_MERGED_START = "[PRIOR CONTEXT"
_MERGED = "[END OF PRIOR CONTEXT — COMPACTION SUMMARY BELOW]"


#: How an engine labels what it wrote, by convention: a bracketed label at the start of
#: the text, of at most 120 characters, naming a summary or a compaction.
SUMMARY_LABEL = re.compile(
    r"\[[^\]\n]{0,60}\b(?:summary|summaries|summarised|summarized|compaction|compacted)\b"
    r"[^\]\n]{0,60}\]",
    re.IGNORECASE,
)


def engine_written(message: Any, markers: Iterable[str] = ()) -> bool:
    """Whether ``message`` begins with a marker an engine writes: one of
    :data:`ENGINE_MARKERS`, of ``markers`` (an engine's own), or a label that follows the
    convention (``SUMMARY_LABEL``)."""
    whole = text_of(message)
    text = whole[:1_000].lstrip()
    if text.startswith(_MERGED_START):
        return _MERGED in whole
    return text.startswith((*ENGINE_MARKERS, *markers)) or SUMMARY_LABEL.match(text) is not None


def is_users_words(message: Any, markers: Iterable[str] = ()) -> bool:
    """Whether ``message`` holds the user's own words: role ``user`` and written by no
    engine (``markers``: the engine's own, beside :data:`ENGINE_MARKERS`)."""
    if not isinstance(message, dict) or message.get("role") != "user":
        return False
    return not engine_written(message, markers)

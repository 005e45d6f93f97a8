"""Which original a message an engine hands back stands for: shared by the frameworks'
converters, which give back the framework's own objects for what the engine kept."""

from __future__ import annotations

import bisect
import json
from collections.abc import Iterable, Sequence
from typing import Any

__all__ = ["Alignment", "message_key"]


def message_key(message: Any) -> str:
    """Equal OpenAI messages have equal keys (dict order does not count)."""
    return json.dumps(message, sort_keys=True, default=str)


class Alignment:
    """The originals' keys, in order. :meth:`matches` pairs the messages an engine handed
    back with them: each original at most once, matched from the end (an engine keeps
    order, and what it keeps verbatim is mostly the recent tail), each message to the
    latest unused original before the last match, so that when equal messages are kept
    in part, the later ones keep their own originals; None for a message the engine made.
    """

    def __init__(self, keys: Iterable[str]) -> None:
        self._count = 0
        self._at: dict[str, list[int]] = {}  # key -> the positions holding it, ascending
        for key in keys:
            self._at.setdefault(key, []).append(self._count)
            self._count += 1

    def matches(self, messages: Sequence[Any]) -> list[int | None]:
        """For each of ``messages``, the position of its original, or None."""
        used = [False] * self._count
        before = self._count
        found: list[int | None] = [None] * len(messages)
        for index in range(len(messages) - 1, -1, -1):
            positions = self._at.get(message_key(messages[index]), [])
            end = bisect.bisect_left(positions, before)
            order = [*reversed(positions[:end]), *reversed(positions[end:])]
            match = next((i for i in order if not used[i]), None)
            if match is not None:
                used[match] = True
                before = match
            found[index] = match
        return found

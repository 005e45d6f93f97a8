"""Leaf summaries prepared ahead, in a cache keyed by exactly what they summarise.

``compaction.prepare_leaves`` plans the leaf folds a pass would make now, without
writing anything, and summarises each chunk with the auxiliary LLM into a
:class:`SummaryCache`. A pass asks the cache first (:func:`cached_summary`): the key is
the chunk's rendered text and the summary's bounds, so a chunk whose messages changed is
a new key, and a summary is never given to other text. With ``ready_only`` a pass stops
at the first chunk not ready instead of waiting for the summariser.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Callable

from hermes_core import LLM, FailureCooldown, get_logger

__all__ = ["SummaryCache"]

logger = get_logger("hermes_core.engines.lcm")

#: Summaries a cache holds at most (oldest used first out): a few passes' worth.
CACHE_ENTRIES = 512


class SummaryCache:
    """Summaries by the text and bounds they were made for; counts of hits and misses, and
    the sessions being prepared for. Thread-safe: a preparation and a pass may share it."""

    def __init__(self, entries: int = CACHE_ENTRIES) -> None:
        self._entries = entries
        self._found: OrderedDict[str, tuple[str, str]] = OrderedDict()
        self._preparing: dict[str, int] = {}
        self._prepared: set[str] = set()
        #: The message ids of each chunk prepared, by its first id (a pass folds the part
        #: prepared of a chunk the fresh tail has since let grow).
        self._chunks: OrderedDict[int, list[int]] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    @staticmethod
    def key(text: str, budget: int, target: int, cap: int, focus: str | None) -> str:
        raw = f"{budget}\x00{target}\x00{cap}\x00{focus or ''}\x00{text}"
        return hashlib.sha256(raw.encode("utf-8", "surrogatepass")).hexdigest()

    def get(self, key: str) -> tuple[str, str] | None:
        with self._lock:
            found = self._found.get(key)
            if found is not None:
                self._found.move_to_end(key)
            return found

    def put(self, key: str, summary: tuple[str, str]) -> None:
        with self._lock:
            self._found[key] = summary
            self._found.move_to_end(key)
            while len(self._found) > self._entries:
                self._found.popitem(last=False)

    def remember_chunk(self, ids: list[int]) -> None:
        with self._lock:
            self._chunks[ids[0]] = list(ids)
            self._chunks.move_to_end(ids[0])
            while len(self._chunks) > self._entries:
                self._chunks.popitem(last=False)

    def chunk_from(self, first_id: int) -> list[int] | None:
        """The ids of the chunk last prepared that starts at message ``first_id``."""
        with self._lock:
            return self._chunks.get(first_id)

    def __len__(self) -> int:
        with self._lock:
            return len(self._found)

    def counted(self, hit: bool) -> None:
        with self._lock:
            if hit:
                self.hits += 1
            else:
                self.misses += 1

    def start(self, session: str) -> None:
        """A preparation for ``session`` starts (the host runs at most one per pass)."""
        with self._lock:
            self._preparing[session] = self._preparing.get(session, 0) + 1

    def done(self, session: str, prepared: bool) -> None:
        with self._lock:
            left = self._preparing.get(session, 1) - 1
            if left:
                self._preparing[session] = left
            else:
                self._preparing.pop(session, None)
            if prepared:
                self._prepared.add(session)

    def was_prepared(self, session: str) -> bool:
        """Whether summaries were prepared for ``session`` since its last reset."""
        with self._lock:
            return session in self._prepared

    def forget(self, session: str) -> None:
        with self._lock:
            self._prepared.discard(session)

    def state(self, session: str) -> str | None:
        """``"preparing"``, ``"ready"`` (prepared since the last reset), or None."""
        with self._lock:
            if session in self._preparing:
                return "preparing"
            return "ready" if session in self._prepared else None


Summarize = Callable[..., tuple[str, str]]


def cached_summary(
    cache: SummaryCache | None,
    summarize: Summarize,
    llm: LLM | None,
    text: str,
    budget: int,
    target: int,
    cooldown: FailureCooldown | None,
    cap: int,
    focus: str | None,
    ready_only: bool = False,
) -> tuple[str, str] | None:
    """The summary of ``text``: from ``cache`` when it holds it, else from ``summarize``
    (kept when the LLM wrote it); None with ``ready_only`` when the cache lacks it."""
    if cache is None or llm is None:
        return summarize(llm, text, budget, target, cooldown, cap_tokens=cap, focus=focus)
    key = SummaryCache.key(text, budget, target, cap, focus)
    found = cache.get(key)
    cache.counted(found is not None)
    if found is not None:
        return found
    if ready_only:
        return None
    made = summarize(llm, text, budget, target, cooldown, cap_tokens=cap, focus=focus)
    if made[1] != "truncated":  # only the LLM's own summaries are worth keeping
        cache.put(key, made)
    return made

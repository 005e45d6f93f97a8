r"""What a query means, whichever backend searches: its words, its script, a hit.

A query is literal text. Its words are ``\w+`` runs (so no query-language
operator can be in one); for messages, English function words are left out
so a question in plain language ranks by what it is about.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["CJK", "WORD", "Hit", "has_cjk", "like_pattern", "query_words"]

WORD = re.compile(r"\w+", re.UNICODE)
#: English function words (articles, pronouns, auxiliaries, prepositions,
#: conjunctions, question words, contraction tails): they say nothing about
#: what a message is about, so a query ranks by its other words.
_STOP_WORDS = frozenset(
    [
        "a",
        "an",
        "the",
        "and",
        "or",
        "but",
        "if",
        "then",
        "than",
        "so",
        "as",
        "at",
        "by",
        "for",
        "from",
        "in",
        "into",
        "of",
        "on",
        "onto",
        "out",
        "over",
        "to",
        "up",
        "with",
        "about",
        "after",
        "before",
        "between",
        "under",
        "again",
        "once",
        "here",
        "there",
        "when",
        "where",
        "why",
        "how",
        "what",
        "which",
        "who",
        "whom",
        "whose",
        "this",
        "that",
        "these",
        "those",
        "am",
        "is",
        "are",
        "was",
        "were",
        "be",
        "been",
        "being",
        "have",
        "has",
        "had",
        "having",
        "do",
        "does",
        "did",
        "doing",
        "would",
        "should",
        "could",
        "can",
        "will",
        "shall",
        "may",
        "might",
        "must",
        "i",
        "me",
        "my",
        "myself",
        "we",
        "our",
        "ours",
        "us",
        "you",
        "your",
        "yours",
        "he",
        "him",
        "his",
        "she",
        "her",
        "hers",
        "it",
        "its",
        "they",
        "them",
        "their",
        "theirs",
        "not",
        "no",
        "nor",
        "only",
        "own",
        "same",
        "too",
        "very",
        "just",
        "also",
        "such",
        "some",
        "any",
        "all",
        "both",
        "each",
        "other",
        "s",
        "t",
        "d",
        "ll",
        "re",
        "ve",
        "m",
    ]
)
CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]")


@dataclass(frozen=True)
class Hit:
    kind: str  # "message" or "summary"
    id: int
    session_id: str
    text: str
    order: int  # seq for messages, last_seq for summaries


def has_cjk(text: str) -> bool:
    """Whether ``text`` holds characters of a script written without spaces between words."""
    return CJK.search(text) is not None


def like_pattern(text: str) -> str:
    """``text`` as a ``LIKE ... ESCAPE '\\'`` pattern matching it anywhere, literally."""
    return "%" + text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"


def query_words(text: str, limit: int = 64) -> list[str]:
    """The words of a natural-language query that say what it is about: lowercased, without
    function words, each once, in order (at most ``limit``)."""
    words = [w for w in WORD.findall(text.lower()) if w not in _STOP_WORDS]
    return list(dict.fromkeys(words))[:limit]

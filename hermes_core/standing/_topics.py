"""What a standing instruction is about, to tell which later one replaces or revokes it.

Two instructions on the same *slot* (the reply's language, its format, its
length, the units, how to address the user, the tone) cannot both hold: the
later replaces the earlier ("reply in French", later "answer in German from
now on"). Anything else is matched by the words it shares: a revocation ends
the earlier instruction that shares most of its content words with it.
"""

from __future__ import annotations

import re

__all__ = ["content_words", "overlap", "slot"]

_SLOTS: dict[str, re.Pattern[str]] = {
    "language": re.compile(
        r"\b(?:english|french|spanish|german|italian|portuguese|japanese|chinese|mandarin"
        r"|dutch|russian|korean|arabic|hindi|polish|swedish|turkish|greek|hebrew|language)\b",
        re.IGNORECASE,
    ),
    "format": re.compile(
        r"\b(?:bullet|bullets|bulleted|numbered|list|lists|table|tables|markdown|json|yaml"
        r"|prose|paragraphs?|headings?|plain text)\b",
        re.IGNORECASE,
    ),
    "length": re.compile(
        r"\b(?:\d+ (?:words|sentences|lines|characters)|short(?:er)?|brief(?:ly)?|concise"
        r"|long(?:er)?|detailed|verbose|terse|one (?:line|sentence|paragraph))\b",
        re.IGNORECASE,
    ),
    "units": re.compile(
        r"\b(?:metric|imperial|celsius|fahrenheit|kilometers|kilometres|miles|kg|pounds)\b",
        re.IGNORECASE,
    ),
    "address": re.compile(r"\b(?:call me|address me|refer to me|my name is)\b", re.IGNORECASE),
    "tone": re.compile(
        r"\b(?:formal(?:ly)?|casual(?:ly)?|friendly|polite|blunt|playful|serious|tone)\b",
        re.IGNORECASE,
    ),
}
_WORD = re.compile(r"[a-z0-9']+")
_STOP = frozenset(
    re.findall(
        r"\S+",
        """a about above after again all also always am an and any anymore are as at be been
        before being but by can could did do does doing don't each ever every for from further
        had has have having he her here hers him his how i i'd i'll i'm if in into is it it's
        its just let's me more most my never no nor not now of off on once only or other our
        ours out over own please same she should so some such than that the their them then
        there these they this those through to too under until up very was we were what when
        where whenever which while who whom why will with would you your yours yourself rest
        session conversation forget stop ignore said earlier previous instruction rule need
        longer""",
    )
)


def slot(text: str) -> str | None:
    """The slot ``text`` is about, when one only is named; else None."""
    named = [name for name, pattern in _SLOTS.items() if pattern.search(text)]
    return named[0] if len(named) == 1 else None


def content_words(text: str) -> frozenset[str]:
    """The words of ``text`` that say what it is about (no stop words; a plural's final
    ``s`` dropped)."""
    words = (w.rstrip("'s") if len(w) > 3 else w for w in _WORD.findall(text.lower()))
    return frozenset(w for w in words if w and w not in _STOP)


def overlap(a: str | frozenset[str], b: str | frozenset[str]) -> float:
    """The share of the smaller text's content words the two share (0 to 1); either may be
    given as its content words already."""
    left = a if isinstance(a, frozenset) else content_words(a)
    right = b if isinstance(b, frozenset) else content_words(b)
    if not left or not right:
        return 0.0
    return len(left & right) / min(len(left), len(right))

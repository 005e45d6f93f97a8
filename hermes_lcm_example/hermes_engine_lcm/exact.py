"""The stored messages that hold, word for word, a term the user quoted in an ask.

A user who asks about ``/srv/reports/q3_final.md``, ``build_step_42`` or
``ERR-4012`` means the message that holds exactly that, whatever else the ask
says: ranked relevance weighs every word of a long ask, and the turns that
share its common words (a topic discussed every few turns) can outrank the one
message holding the term. An exact term is a path, or a name holding a digit or
an underscore; a plain word or a number alone is not one (it names too much).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from hermes_core import text_of
from hermes_engine_lcm.store.view import ReadView

__all__ = ["EXACT_TERMS", "exact_terms", "first", "holding"]

#: The most exact terms one ask is searched for (the first ones it names).
EXACT_TERMS = 8
#: Stored messages read per term, at most.
PER_TERM = 8

# Each kind starts where a run of its characters does and reads at most 200 of them, so
# a long run costs its length once.
_TERM = re.compile(
    r"(?<![\w.\-/~])(?:~|\.{0,2})/[\w.\-/]{3,200}"  # a path
    r"|(?<![\w\-])[A-Za-z][\w\-]{1,199}(?![\w\-])"  # a name: kept when it has a digit or _
)
_NAME_WITH_MARK = re.compile(r"[A-Za-z][\w\-]*(?:\d|_)")


def exact_terms(query: str) -> list[str]:
    """The exact terms of ``query``, each once, in order (at most :data:`EXACT_TERMS`)."""
    found: dict[str, None] = {}
    for term in _TERM.findall(query):
        term = term.rstrip(".-")
        if term[0].isalpha() and _NAME_WITH_MARK.match(term) is None:
            continue
        if len(term) >= 4:
            found.setdefault(term, None)
    return list(found)[:EXACT_TERMS]


def holding(view: ReadView, query: str) -> list[int]:
    """Ids of the viewed session's stored messages holding an exact term of ``query`` word
    for word (terms in the ask's order, each term's messages best ranked first)."""
    ids: dict[int, None] = {}
    for term in exact_terms(query):
        candidates = [h.id for h in view.search(term, PER_TERM)]
        bodies = view.bodies(candidates)
        for i in candidates:
            if i in bodies and term in text_of(bodies[i]):
                ids.setdefault(i, None)
    return list(ids)


def first(exact: Sequence[int], ranked: Sequence[int]) -> list[int]:
    """``exact`` then ``ranked``, each id once."""
    return list(dict.fromkeys([*exact, *ranked]))

"""Recall probes a reader can check, drawn from the transcript itself (no LLM).

* **Rare token.** A later user message reuses a rare token first seen many
  messages before in a user message or a tool result: a path, an identifier
  with digits or underscores, a number of four or more digits, a quoted error.
  The message that first held it must be in the request built for the later
  one (verbatim: as a message, or its whole text inside one, as LCM's note of
  recalled originals quotes it).
* **Standing instruction.** A rule the user set for the rest of the session
  ("from now on ...", "always ...", "never ..."; the same detector the engines
  carry them with) must be in every later request (verbatim).

Each probe names the message it came from and the one it is asked at, so a
user can look both up and see why it counted.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from hermes_core._redaction import REDACTED, redact
from hermes_core.messages import text_of
from hermes_core.standing._detect import find_directives

__all__ = ["MAX_PROBES", "MIN_GAP", "Probe", "find_probes", "looks_like_a_key"]

#: Messages between a token's first use and its reuse, at least: nearer, any engine has it.
MIN_GAP = 20
#: Probes of each kind per session, at most (the farthest reuses first).
MAX_PROBES = 40
#: A token is rare when at most this many messages held it before its reuse.
RARE = 2
#: The roles whose text a probe is drawn from: the user's words and what tools returned
#: (the model's replies repeat them; a compaction's rows are not in the transcript).
_SOURCES = ("user", "tool")

# Each kind starts where a run of its characters does (a lookbehind) and reads at most
# 200 of them: a long run costs its length once, never once per character of it.
_TOKEN = re.compile(
    r"(?<![\w.\-/~])(?:~|\.{0,2})/[\w.\-/]{3,200}"  # a path
    r"|(?<![\w\-])[A-Za-z][\w\-]{0,199}(?![\w\-])"  # a name: kept when it has a digit or _
    r"|(?<!\w)\d{4,200}(?!\w)"  # a number of four or more digits
)
#: A name is a probe when it holds a digit or an underscore, or names an error.
_IDENTIFIER = re.compile(r"[A-Za-z][\w\-]*(?:\d|_[\w\-])|\w+(?:Error|Exception)$")


def _tokens(text: str) -> set[str]:
    """The rare-token candidates of ``text``: paths, identifiers with digits or
    underscores, numbers of four or more digits, errors' names."""
    found = set()
    for token in _TOKEN.findall(text):
        if token[0].isalpha() and _IDENTIFIER.match(token) is None:
            continue
        found.add(token.rstrip("."))
    return found


@dataclass(frozen=True)
class Probe:
    """What must be in the request for the user message at ``asked_at``: the message at
    ``source`` (its ``token`` reused), or the standing instruction ``text`` set there."""

    kind: str  # "rare_token" or "standing_instruction"
    source: int
    asked_at: int
    token: str

    @property
    def shown(self) -> str:
        """The token as output may show it: redacted, and withheld whole when it looks like
        a key of a shape no rule knows (:func:`looks_like_a_key`)."""
        cleaned = redact(self.token)
        return REDACTED if self.kind == "rare_token" and looks_like_a_key(cleaned) else cleaned

    def holds(self, request: list[dict[str, Any]], transcript: list[dict[str, Any]]) -> bool:
        """Whether ``request`` carries what this probe asks for, verbatim."""
        if self.kind == "rare_token":
            wanted = transcript[self.source].get("content")
            if any(message.get("content") == wanted for message in request):
                return True
            whole = text_of(transcript[self.source])
            return bool(whole) and any(whole in text_of(message) for message in request)
        return any(self.token in text_of(message) for message in request)


_KEYLIKE = re.compile(r"[A-Za-z0-9_\-+=]{16,}")


def looks_like_a_key(token: str) -> bool:
    """Whether ``token`` is one run of 16 or more key characters mixing upper case, lower
    case and digits, as random keys and passwords do (an identifier such as
    ``build_step_42`` or a path does not)."""
    if _KEYLIKE.fullmatch(token) is None:
        return False
    classes = (str.isupper, str.islower, str.isdigit)
    return all(any(test(c) for c in token) for test in classes)


def find_probes(transcript: list[dict[str, Any]]) -> list[Probe]:
    """The probes of ``transcript``, rare tokens then standing instructions, each kind
    capped at :data:`MAX_PROBES`."""
    return _rare_tokens(transcript) + _standing(transcript)


def _rare_tokens(transcript: list[dict[str, Any]]) -> list[Probe]:
    first: dict[str, int] = {}
    seen: defaultdict[str, int] = defaultdict(int)
    found: dict[str, Probe] = {}
    for index, message in enumerate(transcript):
        # a path that ends a sentence keeps its full stop out: "/etc/x.key." is /etc/x.key
        tokens = _tokens(text_of(message))
        if message.get("role") == "user":
            for token in tokens:
                start = first.get(token)
                if (
                    start is not None
                    and token not in found
                    and index - start >= MIN_GAP
                    and seen[token] <= RARE
                ):
                    found[token] = Probe("rare_token", start, index, token)
        for token in tokens:
            if message.get("role") in _SOURCES:  # what the model said is no source
                first.setdefault(token, index)
            seen[token] += 1
    # ties broken by the token itself: the same store gives the same probes in the same order
    farthest = sorted(found.values(), key=lambda p: (p.source - p.asked_at, p.asked_at, p.token))
    return sorted(farthest[:MAX_PROBES], key=lambda p: (p.asked_at, p.source, p.token))


def _standing(transcript: list[dict[str, Any]]) -> list[Probe]:
    """For each instruction, the later user messages it must reach (evenly spread)."""
    users = [i for i, m in enumerate(transcript) if m.get("role") == "user"]
    probes: list[Probe] = []
    for index in users:
        for directive in find_directives(text_of(transcript[index])):
            if directive.kind != "instruction":
                continue
            later = [i for i in users if i > index]
            step = max(1, len(later) // 5)  # five checks along the rest of the session
            probes += [
                Probe("standing_instruction", index, i, directive.text) for i in later[::step]
            ]
    return probes[:MAX_PROBES]

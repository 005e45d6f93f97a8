"""Keys nothing reads, inside the sections hermes-context and its engines read.

A misspelled key (``compression: {treshold: 0.3}``) would otherwise be
ignored without a word, and its default applied. A section's valid keys are
its rules' keys, the core's keys in that section, and the keys Hermes Agent
itself reads there (:data:`~hermes_core.config._schema.HERMES_AGENT_KEYS`),
so a config.yaml shared with Hermes Agent is never flagged for Hermes' keys.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping
from typing import Any

from hermes_core._errors import UnknownKey
from hermes_core.config._schema import HERMES_AGENT_KEYS, KEYS
from hermes_core.config._yaml_source import key_lines

__all__ = ["known_keys", "unknown_keys"]

#: How alike a key must be to a valid one to be offered as "did you mean".
_CLOSE = 0.6


def known_keys(section: str, own: Iterable[str] = ()) -> frozenset[str]:
    """The valid keys of ``section``: ``own`` (an engine's rules), the core's keys there,
    and Hermes Agent's."""
    core = (rule.key for rule in KEYS if rule.path.rsplit(".", 1)[0] == section)
    return frozenset([*own, *core, *HERMES_AGENT_KEYS.get(section, ())])


def unknown_keys(
    section: str,
    mapping: Mapping[Any, Any],
    known: frozenset[str],
    *,
    source: str,
    text: str | None,
) -> list[UnknownKey]:
    """One :class:`~hermes_core.UnknownKey` per key of ``mapping`` (the section
    ``section``, dotted) that is not in ``known``, with the closest known key and the
    line of the key in ``text`` (the file's text, when known)."""
    problems = []
    candidates = sorted(known)
    listed = ", ".join(candidates) or "none"
    lines: dict[str, int] | None = None  # read once, when the first unknown key is met
    for key in mapping:
        if not isinstance(key, str) or key in known:
            continue
        if lines is None:
            lines = key_lines(text, section) if text is not None else {}
        path = f"{section}.{key}"
        close = difflib.get_close_matches(key, candidates, n=1, cutoff=_CLOSE)
        problems.append(
            UnknownKey(
                source,
                path,
                f"the keys read in {section} are: {listed}",
                "an unknown key",
                lines.get(key),
                suggestion=f"{section}.{close[0]}" if close else None,
            )
        )
    return problems

"""The key sections of the configuration reference, written from the rules.

A part ``<!-- config-rules: package.module:NAME -->`` of a page (see
``generated.py``) holds one section per :class:`~hermes_core.config.KeyRule`
in ``NAME`` (heading, the rule's sentence, its default and what it accepts), and a part
``<!-- config-table: package.module:NAME -->`` a table of them, so no page can
disagree with what the loader and the engines check.
"""

from __future__ import annotations

import html
import importlib
import re
from typing import Any


def rules_at(reference: str) -> Any:
    """The rules named by ``package.module:NAME``."""
    module, name = reference.split(":")
    return getattr(importlib.import_module(module), name)


#: A code span, whose text markdown shows as written.
CODE_SPAN = re.compile(r"(`[^`]*`)")


def as_text(prose: str) -> str:
    """``prose`` with ``<``, ``>`` and ``&`` outside code spans escaped: a rule's sentence is
    text, and ``<dir>/context_engine/<name>/`` must not become HTML tags."""
    return "".join(
        part if CODE_SPAN.fullmatch(part) else html.escape(part, quote=False)
        for part in CODE_SPAN.split(prose)
    )


def render(rules: Any) -> str:
    """One ``### `path``` section per rule."""
    return "\n".join(
        f"### `{rule.path}`\n\n{as_text(rule.doc)}\n\n"
        f"- default: `{rule.default!r}`\n- expected: {as_text(rule.expected)}\n"
        for rule in rules
    )


def table(rules: Any) -> str:
    """A ``key | default | expected`` table of the rules, linked to their sections in the
    configuration reference."""
    rows = [
        f"| [`{rule.path}`](configuration.md#{rule.path.replace('.', '')}) "
        f"| `{rule.default!r}` | {as_text(rule.expected).replace('|', '&#124;')} |"
        for rule in rules
    ]
    return "\n".join(["| key | default | expected |", "|---|---|---|", *rows]) + "\n"

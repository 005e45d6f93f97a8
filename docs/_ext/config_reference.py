"""mkdocs hook: the key sections of the configuration reference, written from the rules.

A line ``<!-- config-rules: package.module:NAME -->`` in a page becomes one
section per :class:`~hermes_core.config.KeyRule` in ``NAME`` (heading, the
rule's sentence, its default and what it accepts), so the page can never
disagree with what the loader and the engines check.
"""

from __future__ import annotations

import html
import importlib
import re
from typing import Any

MARKER = re.compile(r"^<!-- config-rules: ([\w.]+):(\w+) -->$", re.MULTILINE)


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


def expand(markdown: str) -> str:
    """``markdown`` with every marker line replaced by its sections."""
    return MARKER.sub(lambda match: render(rules_at(f"{match[1]}:{match[2]}")), markdown)


def on_page_markdown(markdown: str, **kwargs: Any) -> str:
    return expand(markdown)

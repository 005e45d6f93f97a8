"""The generated parts of the pages, written into the Markdown files themselves.

A page marks a generated part with a pair of HTML comments, which GitHub and
every Markdown viewer hide, and keeps the generated text between them, so the
raw file reads as the site does:

- ``<!-- figure: bench_lcm.ingest_10000 -->15,505 msg/s<!-- /figure -->``: a
  measured figure from ``docs/figures/bench_lcm.json``;
- ``<!-- measured: bench_lcm -->Measured ...<!-- /measured -->``: when, on what
  and by what command those figures were measured;
- ``<!-- config-rules: package.module:NAME -->`` ... ``<!-- /config-rules -->``:
  a section per configuration key of ``NAME``; ``config-table`` a table of them;
- ``<!-- engine-hooks -->`` ... ``<!-- /engine-hooks -->``: the table of hooks;
- ``<!-- hermes-contract -->`` ... ``<!-- /hermes-contract -->``: Hermes 0.22's contract
  against our adapter and host, from ``docs/probes/hermes_contract.json``.

``python docs/_ext/generated.py`` writes every page's parts anew (a benchmark run
with ``--write-figures`` does it too); ``--check`` only says which pages are out
of date. As an mkdocs hook, a page whose parts differ from what their sources
give fails the build, naming the page, the part and the command; the site then
shows each figure with its date, machine and command on hover.
"""

from __future__ import annotations

import html
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import config_reference  # a sibling, found through the line above
import contract_table
import figure_quotes
import hook_table

DOCS = Path(__file__).resolve().parents[1]

#: One generated part: its kind, its argument, and the text between its two comments.
PART = re.compile(
    r"<!-- (?P<kind>[a-z-]+)(?:: (?P<arg>[\w.:]+))? -->(?P<body>.*?)<!-- /(?P=kind) -->",
    re.DOTALL,
)
#: An opening comment of a known kind, paired or not (a lone one is a mistake).
OPENING = re.compile(
    r"<!-- (figure|measured|config-rules|config-table|engine-hooks|host-methods"
    r"|hermes-contract)\b[^>]*-->"
)
#: What a reader outside the site would see raw: a template call the build used to expand.
PLACEHOLDER = re.compile(r"\{\{.*?\}\}|\{%.*?%\}", re.DOTALL)


class GeneratedError(Exception):
    """A page's generated part cannot be written: an unknown kind, figure or rule."""


def _figure(arg: str, page: str) -> str:
    source, _, key = arg.partition(".")
    return figure_quotes.value(source, key, page)


def _measured(arg: str, page: str) -> str:
    return figure_quotes.measured(arg, page)


#: Each kind: how its text is made from its argument (and the page, for errors).
KINDS: dict[str, Callable[[str, str], str]] = {
    "figure": _figure,
    "measured": _measured,
    "config-rules": lambda arg, page: config_reference.render(config_reference.rules_at(arg)),
    "config-table": lambda arg, page: config_reference.table(config_reference.rules_at(arg)),
    "engine-hooks": lambda arg, page: hook_table.render(),
    "host-methods": lambda arg, page: hook_table.render_host(),
    "hermes-contract": lambda arg, page: contract_table.render(),
}
#: Kinds whose text is always a block of its own lines.
BLOCKS = {"config-rules", "config-table", "engine-hooks", "host-methods", "hermes-contract"}


def body(kind: str, arg: str, page: str) -> str:
    """The text between a part's two comments: inline as it is, a block on lines of its own
    with a blank line either side (so Markdown parses the block as a block)."""
    if kind not in KINDS:
        raise GeneratedError(f"{page}: unknown generated part <!-- {kind} -->")
    text = KINDS[kind](arg or "", page)
    if kind in BLOCKS or "\n" in text:
        return "\n\n" + text.strip("\n") + "\n\n"
    return text


def fill(markdown: str, page: str) -> str:
    """``markdown`` with every generated part's text written from its source."""

    def part(match: re.Match[str]) -> str:
        kind, arg = match["kind"], match["arg"] or ""
        head = f"<!-- {kind}: {arg} -->" if arg else f"<!-- {kind} -->"
        return f"{head}{body(kind, arg, page)}<!-- /{kind} -->"

    return PART.sub(part, markdown)


def problems(markdown: str, page: str) -> list[str]:
    """What a reader of the raw file would meet: a template call, an opening comment with
    no closing one, or a part whose text differs from its source."""
    found = [
        f"{page}: a placeholder shown raw: {m[0][:60]!r}" for m in PLACEHOLDER.finditer(markdown)
    ]
    paired = {m.start() for m in PART.finditer(markdown)}
    found += [
        f"{page}: {m[0]!r} has no closing <!-- /{m[1]} -->"
        for m in OPENING.finditer(markdown)
        if m.start() not in paired
    ]
    for m in PART.finditer(markdown):
        if m["body"] != body(m["kind"], m["arg"] or "", page):
            found.append(f"{page}: <!-- {m['kind']}: {m['arg'] or ''} --> is out of date")
    return found


def pages() -> list[Path]:
    """Every page of the site, as Markdown files."""
    return sorted(p for p in DOCS.rglob("*.md") if "_ext" not in p.parts)


def write_all() -> list[Path]:
    """Write every page's generated parts anew; the pages that changed."""
    changed = []
    for path in pages():
        old = path.read_text(encoding="utf-8")
        new = fill(old, path.relative_to(DOCS).as_posix())
        if new != old:
            path.write_text(new, encoding="utf-8")
            changed.append(path)
    return changed


def for_the_site(markdown: str) -> str:
    """A checked page as the site shows it: each figure with its provenance on hover."""

    def figure(match: re.Match[str]) -> str:
        if match["kind"] != "figure" or "\n" in match["body"]:
            return match[0]
        source = match["arg"].partition(".")[0]
        title = html.escape(figure_quotes.provenance(figure_quotes.load(source, "")), quote=True)
        return f'<span class="figure" title="{title}">{match["body"]}</span>'

    return PART.sub(figure, markdown)


def on_page_markdown(markdown: str, page: Any, **kwargs: Any) -> str:
    from mkdocs.exceptions import PluginError  # the build's own error: one line, no trace

    name = page.file.src_path
    try:
        found = problems(markdown, name)
    except (GeneratedError, figure_quotes.FigureError) as exc:
        raise PluginError(str(exc)) from None
    if found:
        raise PluginError("; ".join(found) + ": run `python docs/_ext/generated.py`")
    return for_the_site(markdown)


def main(argv: list[str]) -> int:
    if argv[1:] == ["--check"]:
        found = [
            problem
            for path in pages()
            for problem in problems(path.read_text("utf-8"), path.relative_to(DOCS).as_posix())
        ]
        print("\n".join(found) or "every page's generated parts are up to date")
        return 1 if found else 0
    changed = write_all()
    print("\n".join(f"wrote {p.relative_to(DOCS.parent)}" for p in changed) or "no page changed")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

"""``hermes-context new NAME``: a third-party engine project that works before it is edited,
and is ready to publish: metadata, licence, CI that tests and releases, a README for users."""

from __future__ import annotations

import datetime
import json
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

import click

from hermes_core._names import ENGINE_NAME_RULE, is_valid_engine_name
from hermes_core._version import __version__
from hermes_core.cli._common import discover
from hermes_core.cli._output import fail, out
from hermes_core.cli.scaffold._licenses import LICENSES
from hermes_core.cli.scaffold._templates import FILES

__all__ = ["Author", "command", "render_project"]


@dataclass(frozen=True)
class Author:
    """Who the project names as its author (pyproject ``authors``, the licence)."""

    name: str
    email: str | None = None

    def toml(self) -> str:
        """The ``authors`` list of pyproject.toml (strings quoted as TOML basic strings)."""
        email = f", email = {json.dumps(self.email)}" if self.email else ""
        return f"[{{ name = {json.dumps(self.name)}{email} }}]"


#: Names ``new`` accepts: an engine name that also makes a Python package and class name.
SCAFFOLD_NAME = re.compile(r"[A-Za-z][A-Za-z0-9]*(?:[-_][A-Za-z0-9]+)*")
SCAFFOLD_NAME_RULE = (
    "a name that starts with a letter and has letters and digits, in parts joined by "
    "single '-' or '_' (for example: my-engine)"
)


def class_name(name: str) -> str:
    """The engine class for ``name``: ``my-engine`` -> ``MyEngine``, ``lcm2`` -> ``Lcm2Engine``."""
    parts = [part for part in re.split(r"[-_]", name) if part]
    words = "".join(part[:1].upper() + part[1:] for part in parts)
    return words if words.lower().endswith("engine") else words + "Engine"


def _names(name: str) -> dict[str, str]:
    slug = re.sub(r"[^A-Za-z0-9]+", "_", name).strip("_").lower()
    major, minor = __version__.split(".")[:2]
    return {
        "name": name,
        "dist": f"hermes-engine-{slug.replace('_', '-')}",
        "package": f"hermes_engine_{slug}",
        "cls": class_name(name),
        "major_minor": f"{major}.{minor}",
        "next_major": str(int(major) + 1),
    }


#: A URL as RFC 3986 spells it: these characters only, so that it stands in a TOML string,
#: a Markdown link and a YAML value as it is (no quote, backslash, space or newline).
_URL = re.compile(r"https?://[A-Za-z0-9\-._~:/?#\[\]@!$&'()*+,;=%]+")


def checked_url(url: str) -> str:
    """``url`` when it is an http(s) URL of RFC 3986's characters, else ValueError saying so
    (the project's files quote it as it is)."""
    if not _URL.fullmatch(url) or not urlsplit(url).netloc:
        raise ValueError(
            f"--url {url[:80]!r} is not an http(s) URL of plain URL characters (no quotes, "
            "spaces or line breaks; percent-encode anything else)"
        )
    return url


def render_project(
    name: str,
    root: Path,
    *,
    author: Author,
    license_id: str = "MIT",
    url: str | None = None,
    year: int | None = None,
) -> Path:
    """Write the project for engine ``name`` under ``root``; returns its directory.

    ``url`` defaults to ``https://github.com/OWNER/<dist>``, to be edited (ValueError for
    one that is not a plain http(s) URL, see :func:`checked_url`);
    ``license_id`` is one of :data:`~hermes_core.cli.scaffold._licenses.LICENSES`.
    """
    values = _names(name)
    project = root / values["dist"]
    if project.exists():
        raise FileExistsError(f"{project} already exists; choose another --path or remove it")
    values |= {
        "license": license_id,
        "author": author.name,
        "authors": author.toml(),
        "url": checked_url(url) if url else f"https://github.com/OWNER/{values['dist']}",
        "year": str(year or datetime.date.today().year),
    }
    files = {**FILES, "LICENSE": LICENSES[license_id]}
    for relative, template in files.items():
        path = project / relative.format(**values)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(template.format(**values), encoding="utf-8")
    return project


def _git_config(key: str) -> str | None:
    """``git config KEY`` (user.name, user.email), or None without git or the key."""
    try:
        found = subprocess.run(
            ["git", "config", "--get", key], capture_output=True, text=True, timeout=10
        )
    except (OSError, subprocess.SubprocessError):
        return None
    if found.returncode != 0:
        return None
    return found.stdout.strip() or None


#: The author written when none is given, git has none and no terminal can ask.
PLACEHOLDER_AUTHOR = "Your Name"


@click.command("new")
@click.argument("name")
@click.option(
    "--path",
    "root",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("."),
    show_default=True,
    help="Parent folder: the project is created in PATH/hermes-engine-NAME/.",
)
@click.option(
    "--license",
    "license_id",
    type=click.Choice(sorted(LICENSES)),
    default="MIT",
    show_default=True,
    help="The licence written to LICENSE and declared in pyproject.toml.",
)
@click.option(
    "--author",
    help="Author's name (default: git config user.name; else asked at a terminal, "
    f"else {PLACEHOLDER_AUTHOR!r}, to be replaced).",
)
@click.option("--email", help="Author's email (default: git config user.email).")
@click.option("--url", help="The project's home page (default: https://github.com/OWNER/DIST).")
@click.pass_context
def command(
    ctx: click.Context,
    name: str,
    root: Path,
    license_id: str,
    author: str | None,
    email: str | None,
    url: str | None,
) -> None:
    """Scaffold a third-party engine project for engine NAME, ready to publish.

    NAME starts with a letter (it becomes a Python package and class name as
    well as the engine name): my-engine gives hermes-engine-my-engine/ with
    the package hermes_engine_my_engine and the class MyEngine. A name that
    an installed engine (or a built-in one) already has is refused.
    """
    if not is_valid_engine_name(name):
        fail(f"{name!r} is not {ENGINE_NAME_RULE}")
    if not SCAFFOLD_NAME.fullmatch(name):
        fail(f"{name!r} cannot name a Python package and class; use {SCAFFOLD_NAME_RULE}")
    taken = discover(ctx).get(name)
    if taken is not None:
        fail(
            f"engine '{name}' already exists ({taken.source}): an engine of the same name "
            "would be rejected as a duplicate; choose another name"
        )
    author = author or _git_config("user.name")
    unnamed = author is None
    if author is None:  # asked at a terminal; elsewhere a placeholder, said below
        author = click.prompt("Author's name") if sys.stdin.isatty() else PLACEHOLDER_AUTHOR
        unnamed = author == PLACEHOLDER_AUTHOR
    email = email or _git_config("user.email")
    try:
        project = render_project(
            name, root, author=Author(author, email), license_id=license_id, url=url
        )
    except (FileExistsError, ValueError) as exc:
        fail(str(exc))
    out.print(
        f"created {project} ({license_id}, by {author})\n"
        f'next: pip install -e "{project}[test,dev]" && python -m pytest {project}'
        + ("" if url else "\nthen set the project's URLs in pyproject.toml (OWNER)")
        + (
            f"\nand the author's name in pyproject.toml and LICENSE ({PLACEHOLDER_AUTHOR}; "
            "git config user.name is not set, --author NAME sets it)"
            if unnamed
            else ""
        ),
        markup=False,
        highlight=False,
        soft_wrap=True,
    )

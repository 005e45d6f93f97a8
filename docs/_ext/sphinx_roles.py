"""A griffe extension for the docs build: Sphinx roles in docstrings become links.

The code's docstrings use Sphinx roles (``:func:`~hermes_core.load_config```),
which IDEs and ``help()`` read well but Markdown shows as raw text. After a
package is loaded, every role is rewritten as an autorefs cross-reference
(``[`load_config`][hermes_core.load_config]``), resolved the way Sphinx would:
inside the object's class, then inside its module, then at the package top,
then as written. A name outside the package (``logging.getLogger``) and a
module (which has no page of its own) become inline code.
"""

from __future__ import annotations

import re
from typing import Any

import griffe

ROLE = re.compile(r":(?:py:)?(meth|func|class|data|attr|mod|exc|obj):`(~?)([\w.]+)`")


def _exists(pkg: griffe.Module, path: str) -> bool:
    if path == pkg.path:
        return True
    if not path.startswith(pkg.path + "."):
        return False
    try:
        found = pkg[path[len(pkg.path) + 1 :]]
    except (KeyError, ValueError, griffe.AliasResolutionError, griffe.CyclicAliasError):
        return False
    # an imported name (``logging`` inside hermes_core._log) is not ours to link
    return not found.is_alias or str(found.target_path).startswith(pkg.path + ".")


def _scopes(obj: griffe.Object) -> list[str]:
    scopes = []
    node: Any = obj
    while node is not None:
        scopes.append(node.path)
        node = node.parent
    return scopes


def _link(pkg: griffe.Module, obj: griffe.Object, match: re.Match[str]) -> str:
    role, short, target = match.group(1), match.group(2), match.group(3)
    title = target.rsplit(".", 1)[-1] if short else target
    if role == "mod":  # modules have no page of their own: their public names do
        return f"`{title}`"
    for scope in [*_scopes(obj), ""]:
        path = f"{scope}.{target}" if scope else target
        if _exists(pkg, path):
            return f"[`{title}`][{path}]"
    return f"`{title}`"


class SphinxRoles(griffe.Extension):
    """Rewrite Sphinx roles in every docstring of the package as cross-references."""

    def on_package(self, *, pkg: griffe.Module, loader: griffe.GriffeLoader, **kwargs: Any) -> None:
        self._rewrite(pkg, pkg, set())

    def _rewrite(self, pkg: griffe.Module, obj: griffe.Object, seen: set[str]) -> None:
        if obj.path in seen:
            return
        seen.add(obj.path)
        if obj.docstring is not None and ":" in obj.docstring.value:
            obj.docstring.value = ROLE.sub(lambda m: _link(pkg, obj, m), obj.docstring.value)
        for member in obj.members.values():
            if not member.is_alias:
                self._rewrite(pkg, member, seen)  # type: ignore[arg-type]

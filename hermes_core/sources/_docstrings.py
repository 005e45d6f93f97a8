"""What an engine says of itself, read from its source without importing it.

A distribution's summary describes the distribution: hermes-context's says
"Plugin host for the context engines of LLM agents", which is no description
of its ``compressor``. The engine's own docstring is, but importing an engine
to list it would break discovery's promise (metadata only, nothing imported).
So the source file an entry point names is found on ``sys.path`` and parsed
with :mod:`ast`: nothing in it runs.
"""

from __future__ import annotations

import ast
import importlib.util
from pathlib import Path

__all__ = ["docstring_summary"]

#: Source files larger than this are not parsed for a one-line description.
MAX_SOURCE_BYTES = 1 << 20


def _module_file(module: str) -> Path | None:
    """The ``.py`` file of dotted ``module``, found without importing any package on the
    way (``find_spec`` of a dotted name would import its parents)."""
    top, *rest = module.split(".")
    try:
        spec = importlib.util.find_spec(top)
    except (ImportError, ValueError):
        return None
    if spec is None or spec.origin is None:
        return None
    path = Path(spec.origin)
    for part in rest:
        folder = path.parent / part
        path = folder / "__init__.py" if folder.is_dir() else path.parent / f"{part}.py"
    return path if path.suffix == ".py" and path.is_file() else None


def _first_paragraph(text: str | None) -> str | None:
    if not text:
        return None
    paragraph = text.strip().split("\n\n", 1)[0]
    return " ".join(paragraph.split()) or None


def _source_of(tree: ast.Module, name: str, package: str) -> str | ast.AST | None:
    """Where ``name`` comes from in ``tree``: its definition, the dotted module it is
    imported from (``package`` is the package relative imports start from), or None."""
    for node in tree.body:
        defines = (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)
        if isinstance(node, defines) and node.name == name:
            return node
        if isinstance(node, ast.ImportFrom) and any(
            alias.name == name and alias.asname in (None, name) for alias in node.names
        ):
            if node.level == 0:
                return node.module
            parts = package.split(".")
            anchor = parts[: len(parts) - (node.level - 1)]
            return ".".join([*anchor, *([node.module] if node.module else [])])
    return None


def _parsed(module: str) -> tuple[ast.Module, str] | None:
    """The parsed source of ``module``, and the package its relative imports start from."""
    path = _module_file(module)
    if path is None:
        return None
    try:
        if path.stat().st_size > MAX_SOURCE_BYTES:
            return None
        tree = ast.parse(path.read_bytes(), filename=str(path))
    except (OSError, SyntaxError, ValueError):
        return None
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    return tree, package


def docstring_summary(target: str, hops: int = 3) -> str | None:
    """The first paragraph of the docstring of ``target`` (an entry point's value,
    ``package.module:Name``), following up to ``hops`` re-exports (``from .engine import
    Name``), else of the named module; None when neither can be read."""
    module, _, attribute = target.partition(":")
    name = attribute.strip().split(".")[0]
    parsed = _parsed(module.strip())
    if parsed is None:
        return None
    tree, package = parsed
    found = _source_of(tree, name, package) if name else None
    for _ in range(hops):
        inner = _parsed(found) if isinstance(found, str) else None
        if inner is None:
            break
        found = _source_of(inner[0], name, inner[1])
    if isinstance(found, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
        own = _first_paragraph(ast.get_docstring(found))
        if own:
            return own
    return _first_paragraph(ast.get_docstring(tree))

"""The public API is declared once, ``hermes_core.__all__`` (and ``hermes_core.testing``):
our engines, the author's guide and the API reference keep to it."""

from __future__ import annotations

import ast
import importlib
import re
import subprocess
import sys
from pathlib import Path

import pytest

import hermes_core
import hermes_core.integrations
import hermes_core.integrations.langchain
import hermes_core.integrations.openai_agents
import hermes_core.testing

ROOT = Path(__file__).resolve().parents[1]
#: What an engine author writes, in this repository: both engines and the example loop.
ENGINE_CODE = ("hermes_compressor", "hermes_lcm_example", "examples")
PUBLIC = {
    "hermes_core": set(hermes_core.__all__),
    "hermes_core.testing": set(hermes_core.testing.__all__),
    "hermes_core.integrations": set(hermes_core.integrations.__all__),
    "hermes_core.integrations.langchain": set(hermes_core.integrations.langchain.__all__),
    "hermes_core.integrations.openai_agents": set(hermes_core.integrations.openai_agents.__all__),
}


def _imports(tree: ast.AST) -> list[tuple[int, str, str]]:
    """(line, module, name) for each name imported from hermes_core anywhere in ``tree``."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("hermes_core"):
            found += [(node.lineno, node.module or "", alias.name) for alias in node.names]
        elif isinstance(node, ast.Import):
            found += [
                (node.lineno, a.name, "") for a in node.names if a.name.startswith("hermes_core")
            ]
    return found


def _not_public(module: str, name: str) -> bool:
    if module not in PUBLIC:
        return True
    return bool(name) and name not in PUBLIC[module]


def _engine_files() -> list[Path]:
    return sorted(p for root in ENGINE_CODE for p in (ROOT / root).rglob("*.py"))


def test_every_name_in_all_exists_and_the_client_loads_only_when_asked() -> None:
    for module, names in PUBLIC.items():
        loaded = importlib.import_module(module)
        assert all(hasattr(loaded, name) for name in names), module
    probe = (
        "import sys, hermes_core; before = 'httpx' in sys.modules; "
        "client = hermes_core.ChatClient; print(before, 'httpx' in sys.modules, client.__name__)"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=120
    ).stdout.split()
    assert out == ["False", "True", "ChatClient"]  # httpx loads with the client, not before


def test_our_engines_import_only_public_names() -> None:
    files = _engine_files()
    assert len(files) > 40  # both engines, their tests and the example were found
    wrong = [
        f"{path.relative_to(ROOT)}:{line}: {module} {name}".rstrip()
        for path in files
        for line, module, name in _imports(ast.parse(path.read_text(encoding="utf-8")))
        if _not_public(module, name)
    ]
    assert wrong == [], (
        "import these from hermes_core itself (or export them there):\n" + "\n".join(wrong)
    )


def test_the_check_catches_a_submodule_import() -> None:
    tree = ast.parse(
        "from hermes_core._tokens import estimate_tokens\nfrom hermes_core import nope\n"
    )
    assert [_not_public(m, n) for _, m, n in _imports(tree)] == [True, True]
    assert not _not_public("hermes_core", "estimate_tokens")


def _python_blocks(text: str) -> list[str]:
    return re.findall(r"```python\n(.*?)```", text, flags=re.S)


@pytest.mark.parametrize("page", ["docs/authors.md", "README.md", "hermes_lcm_example/README.md"])
def test_the_guides_import_only_public_names(page: str) -> None:
    text = (ROOT / page).read_text(encoding="utf-8")
    snippets = _python_blocks(text) + re.findall(r"`(from hermes_core[^`]*)`", text)
    wrong = [
        f"{module} {name}"
        for snippet in snippets
        for _, module, name in _imports(ast.parse(snippet))
        if _not_public(module, name)
    ]
    assert wrong == []


def test_the_api_reference_documents_every_public_name_and_nothing_else() -> None:
    pages = "".join(p.read_text(encoding="utf-8") for p in (ROOT / "docs" / "api").glob("*.md"))
    module = r"hermes_core(?:\.testing|\.integrations(?:\.langchain|\.openai_agents)?)?"
    documented = re.findall(rf"^::: ({module})\.(\w+)$", pages, flags=re.M)
    stray = re.findall(rf"^::: (?!{module}\.\w+$)(.*)$", pages, flags=re.M)
    assert stray == []
    assert [f"{m}.{n}" for m, n in documented if _not_public(m, n)] == []
    for module, names in PUBLIC.items():
        missing = names - {n for m, n in documented if m == module} - {"__version__"}
        assert missing == set(), module

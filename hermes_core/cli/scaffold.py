"""``hermes-context new NAME``: a third-party engine project that works before it is edited."""

from __future__ import annotations

import re
from pathlib import Path

import click

from hermes_core._version import __version__
from hermes_core.cli.output import fail, out
from hermes_core.names import ENGINE_NAME_RULE, is_valid_engine_name

__all__ = ["command", "render_project"]

_PYPROJECT = """[build-system]
requires = ["hatchling>=1.21"]
build-backend = "hatchling.build"

[project]
name = "{dist}"
version = "0.1.0"
description = "The {name} context engine for hermes-context."
readme = "README.md"
requires-python = ">=3.10"
dependencies = ["hermes-context>={major_minor},<{next_major}"]

[project.optional-dependencies]
test = ["pytest>=8"]

[project.entry-points."hermes.context_engines"]
{name} = "{package}:{cls}"

[tool.hatch.build.targets.wheel]
packages = ["{package}"]
"""

_ENGINE = '''"""The {name} context engine."""

from __future__ import annotations

from typing import Any

from hermes_core import ContextEngine, Message, sanitize_tool_pairs

__all__ = ["{cls}"]


class {cls}(ContextEngine):
    """Keeps the system prompt and the most recent messages; replace with your strategy."""

    def __init__(self, config: dict[str, Any] | None = None) -> None:
        section = (config or {{}}).get("{name}") or {{}}
        self.keep_last = int(section.get("keep_last", 20))

    @property
    def name(self) -> str:
        return "{name}"

    def update_from_response(self, usage: dict[str, Any]) -> None:
        self.last_prompt_tokens = usage["prompt_tokens"]
        self.last_completion_tokens = usage["completion_tokens"]
        self.last_total_tokens = usage["total_tokens"]

    def should_compress(self, prompt_tokens: int | None = None) -> bool:
        tokens = self.last_prompt_tokens if prompt_tokens is None else prompt_tokens
        return self.threshold_tokens > 0 and tokens >= self.threshold_tokens

    def compress(
        self,
        messages: list[Message],
        current_tokens: int | None = None,
        focus_topic: str | None = None,
    ) -> list[Message]:
        system = [m for m in messages[:1] if m.get("role") == "system"]
        recent = messages[len(system) :][-self.keep_last :]
        result = sanitize_tool_pairs(system + recent)
        if len(result) < len(messages):
            self.compression_count += 1
            self.last_prompt_tokens = -1
        return result
'''

_TESTS = '''"""The contract every engine keeps (hermes_core.testing) and this engine's own tests."""

from __future__ import annotations

from hermes_core import ContextEngine, activate, discover, load_config
from hermes_core.testing import ContextEngineContract
from {package} import {cls}


class Test{cls}(ContextEngineContract):
    expected_name = "{name}"

    def make_engine(self) -> ContextEngine:
        return {cls}()


def test_the_installed_engine_is_found_and_selected_by_name() -> None:
    registry = discover(load_config({{"context": {{"engine": "{name}"}}}}, env={{}}))
    activation = activate(registry)
    assert activation.fallback is None
    assert activation.engine.name == "{name}"
'''

_README = """# {dist}

The `{name}` context engine for [hermes-context](https://pypi.org/project/hermes-context/).

```bash
pip install -e ".[test]"       # install the engine and pytest
python -m pytest               # the contract kit and this engine's tests
hermes-context engines         # {name} is listed
hermes-context select {name}   # and selected in config.yaml
hermes-context doctor {name}   # the contract kit against the installed engine
```

Build a wheel for PyPI with `python -m build`. Its
`Requires-Dist: hermes-context>={major_minor},<{next_major}` keeps it from being activated
by a hermes-context it was not written for.
"""


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


def render_project(name: str, root: Path) -> Path:
    """Write the project for engine ``name`` under ``root``; returns its directory."""
    values = _names(name)
    project = root / values["dist"]
    if project.exists():
        raise FileExistsError(f"{project} already exists; choose another --path or remove it")
    package = project / values["package"]
    (project / "tests").mkdir(parents=True)
    package.mkdir()
    files = {
        project / "pyproject.toml": _PYPROJECT,
        project / "README.md": _README,
        package / "__init__.py": _ENGINE,
        package / "py.typed": "",
        project / "tests" / "test_engine.py": _TESTS,
    }
    for path, template in files.items():
        path.write_text(template.format(**values), encoding="utf-8")
    return project


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
def command(name: str, root: Path) -> None:
    """Scaffold a third-party engine project for engine NAME, ready for pip install -e.

    NAME starts with a letter (it becomes a Python package and class name as
    well as the engine name): my-engine gives hermes-engine-my-engine/ with
    the package hermes_engine_my_engine and the class MyEngine.
    """
    if not is_valid_engine_name(name):
        fail(f"{name!r} is not {ENGINE_NAME_RULE}")
    if not SCAFFOLD_NAME.fullmatch(name):
        fail(f"{name!r} cannot name a Python package and class; use {SCAFFOLD_NAME_RULE}")
    try:
        project = render_project(name, root)
    except FileExistsError as exc:
        fail(str(exc))
    out.print(
        f'created {project}\nnext: pip install -e "{project}[test]" && python -m pytest {project}',
        markup=False,
        highlight=False,
    )

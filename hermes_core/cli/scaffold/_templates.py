"""The files of a scaffolded engine project, as ``str.format`` templates.

Placeholders: ``name`` (the engine), ``dist``, ``package``, ``cls``,
``major_minor`` / ``next_major`` (the hermes-context range), ``license``
(SPDX), ``author``, ``authors`` (the TOML list), ``url``, ``year``. Literal
braces are doubled.
"""

from __future__ import annotations

__all__ = ["FILES"]

PYPROJECT = """[build-system]
requires = ["hatchling>=1.27"]
build-backend = "hatchling.build"

[project]
name = "{dist}"
version = "0.1.0"
description = "The {name} context engine for hermes-context."
readme = "README.md"
license = "{license}"
license-files = ["LICENSE"]
authors = {authors}
requires-python = ">=3.10"
dependencies = ["hermes-context>={major_minor},<{next_major}"]
keywords = ["hermes-context", "context-engine", "llm", "agents"]
classifiers = [
    "Development Status :: 3 - Alpha",
    "Intended Audience :: Developers",
    "Programming Language :: Python :: 3",
    "Programming Language :: Python :: 3 :: Only",
    "Topic :: Scientific/Engineering :: Artificial Intelligence",
    "Typing :: Typed",
]

[project.urls]
Homepage = "{url}"
Source = "{url}"
Issues = "{url}/issues"

[project.optional-dependencies]
test = ["pytest>=8"]
dev = ["build>=1", "twine>=5"]  # python -m build, twine check

[project.entry-points."hermes.context_engines"]
{name} = "{package}:{cls}"

[tool.hatch.build.targets.wheel]
packages = ["{package}"]
"""

ENGINE = '''"""The {name} context engine."""

from __future__ import annotations

from typing import Any

from hermes_core import (
    ContextEngine,
    HermesConfig,
    KeyRule,
    Message,
    read_section,
    sanitize_tool_pairs,
    whole_number,
)

__all__ = ["RULES", "{cls}"]

#: The keys of the ``{name}:`` section of config.yaml: checked, reported with file and line
#: when wrong, and listed when misspelled (hermes-context reads them with these rules).
RULES = (
    KeyRule(
        "{name}.keep_last",
        whole_number(1),
        "a whole number of messages, 1 or more",
        20,
        "The most recent messages compress keeps, besides the system prompt.",
    ),
)


class {cls}(ContextEngine):
    """Keeps the system prompt and the most recent messages; replace with your strategy."""

    #: The sections this engine reads: hermes-context engines and doctor check them
    config_rules = {{"{name}": RULES}}

    def __init__(
        self,
        config: dict[str, Any] | None = None,
        hermes_config: HermesConfig | None = None,
    ) -> None:
        settings = read_section("{name}", RULES, config, hermes_config)
        self.keep_last: int = settings["keep_last"]

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

TESTS = '''"""The contract every engine keeps (hermes_core.testing) and this engine's own tests."""

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


def test_its_settings_come_from_its_section() -> None:
    assert {cls}({{"{name}": {{"keep_last": 3}}}}).keep_last == 3
    assert {cls}().keep_last == 20
'''

README = """# {dist}

The `{name}` context engine for
[hermes-context](https://github.com/hermes-context/hermes-context), the plugin host
for the context engines of LLM agents: it decides what an agent's conversation
becomes when it outgrows the model's window. `{name}` keeps the system prompt and
the most recent messages.

## Install

```bash
pip install {dist}
hermes-context select {name}   # writes context.engine: {name} into config.yaml
hermes-context doctor {name}   # checks it against the engine contract
```

It needs hermes-context >= {major_minor}, < {next_major}.

## Configure

In `config.yaml` (`$HERMES_HOME/config.yaml`, `~/.hermes` by default):

```yaml
context:
  engine: {name}
{name}:
  keep_last: 20   # the most recent messages kept, besides the system prompt
```

## Develop

```bash
pip install -e ".[test,dev]"
python -m pytest               # the engine contract and this engine's own tests
python -m build                # the wheel and sdist for PyPI
python -m twine check --strict dist/*
```

Pushing a tag `v*` runs `.github/workflows/release.yml`: the tests, then a
release to PyPI by trusted publishing (add this repository as a trusted
publisher of the `{dist}` project on PyPI first).

## License

{license}
"""

GITIGNORE = """__pycache__/
*.py[cod]
*.egg-info/
.eggs/
build/
dist/
.venv/
venv/
.pytest_cache/
.mypy_cache/
.ruff_cache/
.coverage
htmlcov/
"""

# ${{ }} is GitHub's expression syntax; its braces are doubled for str.format.
WORKFLOW = """name: tests and release

on:
  push:
    branches: [main]
    tags: ["v*"]
  pull_request:

jobs:
  test:
    runs-on: ubuntu-latest
    strategy:
      matrix:
        python-version: ["3.10", "3.11", "3.12", "3.13"]
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-python@v5
        with:
          python-version: ${{{{ matrix.python-version }}}}
      - run: python -m pip install -e ".[test]"
      - run: python -m pytest

  release:
    needs: test
    if: startsWith(github.ref, 'refs/tags/v')
    runs-on: ubuntu-latest
    environment: pypi
    permissions:
      id-token: write  # trusted publishing: PyPI trusts this workflow, no token is stored
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-python@v5
        with:
          python-version: "3.12"
      - run: python -m pip install build twine
      - run: python -m build
      - run: python -m twine check --strict dist/*
      - uses: pypa/gh-action-pypi-publish@release/v1
"""

#: Each file of the project (a path relative to it, ``{package}`` filled in) and its template.
FILES = {
    "pyproject.toml": PYPROJECT,
    "README.md": README,
    ".gitignore": GITIGNORE,
    ".github/workflows/release.yml": WORKFLOW,
    "{package}/__init__.py": ENGINE,
    "{package}/py.typed": "",
    "tests/test_engine.py": TESTS,
}

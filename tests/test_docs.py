"""Every hookspec and every configuration key has a documentation section."""

from __future__ import annotations

import inspect
from dataclasses import fields
from pathlib import Path

import pytest
from hermes_engine_lcm.settings import LCMSettings

from hermes_compressor.settings import _RULES as COMPRESSOR_RULES
from hermes_core.config.schema import KEYS
from hermes_core.hookspecs import ContextEngineSpec, PluginSpec

DOCS = Path(__file__).parents[1] / "docs"
CONTRACT = (DOCS / "contract.md").read_text(encoding="utf-8")
CONFIGURATION = (DOCS / "configuration.md").read_text(encoding="utf-8")

HOOKS = sorted(
    (spec.__name__, name)
    for spec in (ContextEngineSpec, PluginSpec)
    for name in vars(spec)
    if not name.startswith("_")
)
CONFIG_KEYS = sorted(
    {rule.path for rule in KEYS}
    | {f"compression.{key}" for key in COMPRESSOR_RULES}
    | {f"lcm.{field.name}" for field in fields(LCMSettings)}
)


@pytest.mark.parametrize(("spec", "hook"), HOOKS)
def test_every_hookspec_has_a_section_generated_from_its_docstring(spec: str, hook: str) -> None:
    # one directive per spec class: mkdocstrings gives each hook its heading, signature and
    # table-of-contents entry (the browser test checks them), so a new hook needs no edit here
    assert CONTRACT.count(f"::: hermes_core.hookspecs.{spec}\n") == 1
    assert f"### `{hook}`" not in CONTRACT
    assert inspect.getdoc(getattr(globals()[spec], hook)), f"{hook} has no docstring"


@pytest.mark.parametrize("key", CONFIG_KEYS)
def test_every_configuration_key_has_a_section(key: str) -> None:
    assert f"### `{key}`" in CONFIGURATION


def test_every_page_is_in_the_site_navigation() -> None:
    nav = (DOCS.parent / "mkdocs.yml").read_text(encoding="utf-8")
    for page in DOCS.rglob("*.md"):
        name = page.relative_to(DOCS).as_posix()
        assert f": {name}" in nav, f"{name} is not in mkdocs.yml nav"


def plain_signature(function: object) -> str:
    """``(a=None, *, b=None, **c)``: the signature as the docs write it, without annotations."""
    import inspect

    signature = inspect.signature(function)  # type: ignore[arg-type]
    plain = signature.replace(
        parameters=[p.replace(annotation=p.empty) for p in signature.parameters.values()],
        return_annotation=signature.empty,
    )
    return str(plain)


def test_the_host_page_gives_the_real_from_config_signature() -> None:
    from hermes_core import ContextHost

    page = (DOCS / "host.md").read_text(encoding="utf-8")
    block = page.split("```python\n", 1)[1].split("```", 1)[0].strip()
    assert block == f"ContextHost.from_config{plain_signature(ContextHost.from_config)}"

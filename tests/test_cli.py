"""The hermes-context command line, run as a subprocess with real config files."""

from __future__ import annotations

import builtins
import json
import os
import shutil
import subprocess
import symtable
import sys
from pathlib import Path

import pytest
import yaml

from hermes_core.testing import TemporarySite, engine_module_source
from hermes_core.testing._rules import RULES
from tests.host_engines import ORPHANING_SOURCE


def run(
    *args: str, home: Path, site: Path | None = None, environ: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """The command line in a process of its own, with ``home`` as $HERMES_HOME, none of the
    caller's $HERMES_CONFIG or $HERMES_CONTEXT_ENGINE, and ``environ`` over that."""
    env = dict(os.environ, HERMES_HOME=str(home), COLUMNS="200")
    env.pop("HERMES_CONFIG", None)
    env.pop("HERMES_CONTEXT_ENGINE", None)
    env.update(environ or {})
    if site is not None:
        env["PYTHONPATH"] = str(site)
    return subprocess.run(
        [sys.executable, "-m", "hermes_core", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_engines_lists_the_installed_engines_and_the_selection(
    tmp_path: Path, hermes_site: TemporarySite
) -> None:
    hermes_site.add_engine(
        "acme-engine",
        "acme",
        engine_module_source("acme", description="Keeps acme things."),
        summary="The Acme distribution",
    )
    (tmp_path / "config.yaml").write_text("context:\n  engine: acme\n", encoding="utf-8")
    result = run("engines", home=tmp_path, site=hermes_site.path)
    assert result.returncode == 0, result.stderr
    acme = next(line for line in result.stdout.splitlines() if line.startswith("acme "))
    assert "selected" in acme and "distribution acme-engine 1.0" in acme
    # the engine's own docstring, read without importing it, not the distribution's summary
    assert "Keeps acme things." in acme and "Acme distribution" not in result.stdout
    assert f"selected: acme (by {tmp_path / 'config.yaml'}" in result.stdout


def test_engines_json_has_the_selection_and_one_entry_per_registration(
    tmp_path: Path, hermes_site: TemporarySite
) -> None:
    hermes_site.add_engine("one-engine", "twin", engine_module_source("twin"))
    hermes_site.add_engine("two-engine", "twin", engine_module_source("twin"))
    result = run("engines", "--json", home=tmp_path, site=hermes_site.path)
    data = json.loads(result.stdout)
    assert data["selected"] == "compressor"
    twins = [e for e in data["engines"] if e["name"] == "twin"]
    assert [(e["distribution"], e["status"]) for e in twins] == [
        ("one-engine", "available"),
        ("two-engine", "duplicate"),
    ]
    assert "context_engine.duplicate_rejected" in result.stderr


def test_engines_check_imports_each_engine_and_reports_failures_without_stopping(
    tmp_path: Path, hermes_site: TemporarySite
) -> None:
    hermes_site.add_engine("good-engine", "good", engine_module_source("good"))
    hermes_site.add_engine("bad-engine", "bad", "raise ImportError('no such backend')\n")
    hermes_site.add_engine(
        "old-engine", "old", engine_module_source("old"), requires=["hermes-context>=99"]
    )
    result = run("engines", "--check", "--json", home=tmp_path, site=hermes_site.path)
    assert result.returncode == 1
    checks = {
        e["name"]: (e["status"], e.get("check")) for e in json.loads(result.stdout)["engines"]
    }
    assert checks["good"] == ("available", "ok")
    assert checks["bad"] == ("broken", "failed")
    assert checks["old"] == ("incompatible", None)
    assert checks["compressor"] == ("selected", "ok")


def test_a_broken_config_is_a_warning_not_a_crash(tmp_path: Path) -> None:
    (tmp_path / "config.yaml").write_text("context: [\n", encoding="utf-8")
    result = run("engines", home=tmp_path)
    assert result.returncode == 0
    assert "hermes_config.invalid" in result.stderr
    assert "Traceback" not in result.stderr


def test_a_broken_config_in_strict_mode_is_one_clear_error(tmp_path: Path) -> None:
    (tmp_path / "config.yaml").write_text(
        "context:\n  strict: true\n  engine: 7\n", encoding="utf-8"
    )
    result = run("engines", home=tmp_path)
    assert result.returncode == 2
    assert "key 'context.engine' expected an engine name" in result.stderr
    assert "Traceback" not in result.stderr


def test_select_writes_the_engine_and_keeps_every_other_key(
    tmp_path: Path, hermes_site: TemporarySite
) -> None:
    hermes_site.add_engine("acme-engine", "acme", engine_module_source("acme"))
    config = tmp_path / "config.yaml"
    config.write_text(
        "compression:\n  threshold: 0.6\ncontext:\n  strict: false\n"
        "lcm:\n  fresh_tail_messages: 9\n",
        encoding="utf-8",
    )
    result = run("select", "acme", home=tmp_path, site=hermes_site.path)
    assert result.returncode == 0, result.stderr
    assert yaml.safe_load(config.read_text(encoding="utf-8")) == {
        "compression": {"threshold": 0.6},
        "context": {"strict": False, "engine": "acme"},
        "lcm": {"fresh_tail_messages": 9},
    }


def test_select_refuses_missing_incompatible_and_path_like_names(
    tmp_path: Path, hermes_site: TemporarySite
) -> None:
    hermes_site.add_engine(
        "old-engine", "old", engine_module_source("old"), requires=["hermes-context>=99"]
    )
    missing = run("select", "nope", home=tmp_path, site=hermes_site.path)
    assert missing.returncode == 2 and "engine 'nope' is not installed" in missing.stderr
    old = run("select", "old", home=tmp_path, site=hermes_site.path)
    assert old.returncode == 2 and "is incompatible: requires hermes-context>=99" in old.stderr
    path_like = run("select", "../x", home=tmp_path)
    assert path_like.returncode == 2 and "not an engine name" in path_like.stderr
    assert not (tmp_path / "config.yaml").exists()
    for result in (missing, old, path_like):
        assert "Traceback" not in result.stderr


def test_doctor_runs_the_contract_kit_on_an_engine(tmp_path: Path) -> None:
    result = run("doctor", "compressor", home=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "signatures fit the hookspecs" in result.stdout
    assert f"all {len(RULES)} contract rules hold" in result.stdout


def test_doctor_works_without_pytest_and_touches_no_state(tmp_path: Path) -> None:
    no_pytest = tmp_path / "no-pytest"
    no_pytest.mkdir()
    (no_pytest / "pytest.py").write_text("raise ImportError('pytest is not installed')\n")
    home = tmp_path / "home"
    home.mkdir()
    for args in (("doctor", "lcm"), ("engines", "--check")):
        result = run(*args, home=home, site=no_pytest)
        assert result.returncode == 0, result.stdout + result.stderr
        assert "Warning" not in result.stderr and "Traceback" not in result.stderr
    assert (
        f"all {len(RULES)} contract rules hold"
        in run("doctor", "lcm", home=home, site=no_pytest).stdout
    )
    assert list(home.iterdir()) == []  # no lcm/lcm.db in the user's home


def test_doctor_summarises_the_rules_an_engine_breaks(
    tmp_path: Path, hermes_site: TemporarySite
) -> None:
    hermes_site.add_engine("orphan-engine", "orphaning", ORPHANING_SOURCE, attribute="Orphaning")
    result = run("doctor", "orphaning", home=tmp_path, site=hermes_site.path)
    assert result.returncode == 1
    assert f"{len(RULES) - 2} of {len(RULES)} contract rules hold; 2 do not" in result.stdout
    assert "x compress returns a valid message list: compress returned an invalid list" in (
        result.stdout
    )
    assert "passed" not in result.stdout  # our words, not pytest's


def test_engines_shows_a_configured_engine_that_is_missing_and_what_is_used(
    tmp_path: Path,
) -> None:
    (tmp_path / "config.yaml").write_text("context:\n  engine: gone\n", encoding="utf-8")
    result = run("engines", home=tmp_path)
    assert result.returncode == 0, result.stderr
    row = next(line for line in result.stdout.splitlines() if line.startswith("gone "))
    assert "missing" in row and "it is not installed" in row
    assert "cannot use gone: it is not installed; the host uses compressor instead" in (
        result.stdout
    )
    data = json.loads(run("engines", "--json", home=tmp_path).stdout)
    assert (data["selected"], data["used"]) == ("gone", "compressor")
    assert data["selection_problem"] == "it is not installed"


def test_doctor_says_what_to_do_about_a_broken_engine(
    tmp_path: Path, hermes_site: TemporarySite
) -> None:
    hermes_site.add_engine("bad-engine", "bad", "raise ImportError('no such backend')\n")
    result = run("doctor", "bad", home=tmp_path, site=hermes_site.path)
    assert result.returncode == 1
    assert "no such backend" in result.stdout and "what to do:" in result.stdout


def test_replay_of_the_bundled_sample_compacts_with_the_compressor(tmp_path: Path) -> None:
    result = run("replay", "--context-length", "16000", home=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "compaction passes" in result.stdout
    assert "engine compressor: 300 turns" in result.stdout
    assert (
        "window 16,000 tokens (4,000 kept for the reply), threshold 6,000, summaries by no LLM "
        "configured" in result.stdout
    )
    assert "=" * 40 in result.stdout and "-" * 40 in result.stdout  # window and threshold
    assert "compaction pass, size after (x)" in result.stdout
    assert "% saved); largest request" in result.stdout
    rows = [line for line in result.stdout.splitlines() if line.rstrip().endswith("of window")]
    assert rows and all(" 0% of window" not in row for row in rows)  # usage before the pass


def test_replay_shows_the_standing_instructions_carried(tmp_path: Path) -> None:
    from hermes_core.testing._conversations import sample_conversation

    rule = "From now on, answer in bullet points only."
    messages = sample_conversation(3)
    messages[1:1] = [{"role": "user", "content": rule}, {"role": "assistant", "content": "Ok."}]
    messages += sample_conversation(200)[1:]
    source = tmp_path / "conversation.jsonl"
    source.write_text("\n".join(json.dumps(m) for m in messages) + "\n")
    result = run("replay", str(source), "--context-length", "8000", home=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "standing instructions carried into every request: 1" in result.stdout
    assert f"  - {rule}" in result.stdout
    as_json = json.loads(run("replay", str(source), "--json", home=tmp_path).stdout)
    assert as_json["standing_instructions"] == [rule]


def test_replay_figures_add_up(tmp_path: Path) -> None:
    result = run("replay", "--context-length", "16000", "--json", home=tmp_path)
    report = json.loads(result.stdout)
    figures, requests = report["figures"], report["requests"]
    assert figures["model_calls"] == len(requests) == 300
    assert figures["tokens_with_engine"] == sum(r["sent_tokens"] for r in requests)
    assert figures["tokens_without_engine"] == sum(r["full_tokens"] for r in requests)
    assert figures["tokens_with_engine"] < figures["tokens_without_engine"] / 2
    assert figures["largest_request_tokens"] == max(r["sent_tokens"] for r in requests) < 16000
    assert figures["requests_over_window"] == 0 and figures["passes"] == len(report["passes"])


def test_replay_says_plainly_when_the_engine_cannot_keep_inside_the_window(tmp_path: Path) -> None:
    result = run("replay", "--engine", "lcm", "--context-length", "2000", home=tmp_path)
    assert result.returncode == 1
    assert "lcm did not keep the conversation inside the window" in result.stdout
    assert "requests were over 1,500 tokens, the window less 500 for the reply" in result.stdout


def test_replay_refuses_an_engine_it_cannot_run_and_a_window_below_one(tmp_path: Path) -> None:
    missing = run("replay", "--engine", "nosuch", home=tmp_path)
    assert missing.returncode == 2
    assert "--engine nosuch: engine 'nosuch' is not installed" in missing.stderr
    assert "context_engine.fallback" not in missing.stderr  # said once
    negative = run("replay", "--context-length", "-5", home=tmp_path)
    assert negative.returncode == 2 and "--context-length" in negative.stderr


def test_replay_draws_the_chart_into_png_and_svg_files(tmp_path: Path) -> None:
    png, svg = tmp_path / "out" / "chart.png", tmp_path / "chart.svg"
    png.parent.mkdir()  # the folder is the user's to make (none is made on their behalf)
    for path in (png, svg):
        result = run("replay", "--context-length", "8000", "--plot", str(path), home=tmp_path)
        assert result.returncode == 0, result.stderr
        assert f"chart written to {path}" in result.stdout
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 10_000
    text = svg.read_text(encoding="utf-8")
    assert "<svg" in text and "window" in text and "threshold" in text
    wrong = run("replay", "--plot", str(tmp_path / "chart.txt"), home=tmp_path)
    assert wrong.returncode == 2 and ".png or .svg" in wrong.stderr


def test_replay_with_lcm_answers_an_ask_with_its_search_tool(tmp_path: Path) -> None:
    result = run(
        "replay",
        "--engine",
        "lcm",
        "--context-length",
        "16000",
        "--ask",
        "which host runs the staging database",
        home=tmp_path,
    )
    assert result.returncode == 0, result.stderr
    assert "engine lcm: 300 turns" in result.stdout
    ask = result.stdout.split("what the model would receive", 1)[1].splitlines()
    assert len(ask) <= 12
    hits = ask[ask.index(next(line for line in ask if "lcm_grep finds" in line)) + 1 :]
    assert "kestrel-17" in hits[0]  # the top hit is the fact, not the question itself
    assert all(len(line) <= 130 for line in ask)
    assert not (tmp_path / "lcm").exists()  # the replay never touches the user's store


def test_replay_never_opens_a_store_the_users_config_names(tmp_path: Path) -> None:
    mine = tmp_path / "mine.db"
    config = f"lcm:\n  database: {mine}\ncompression:\n  protect_last_n: 4\n"
    (tmp_path / "config.yaml").write_text(config, encoding="utf-8")
    result = run("replay", "--engine", "lcm", "--context-length", "16000", home=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "engine lcm: 300 turns" in result.stdout
    assert not mine.exists() and not (tmp_path / "lcm").exists()


def test_replay_of_a_bad_jsonl_file_names_the_line(tmp_path: Path) -> None:
    transcript = tmp_path / "t.jsonl"
    transcript.write_text('{"role": "user", "content": "hi"}\nnot json\n', encoding="utf-8")
    result = run("replay", str(transcript), home=tmp_path)
    assert result.returncode == 2
    assert f"{transcript}:2: not a JSON object" in result.stderr


def test_new_scaffolds_a_project_and_refuses_bad_names_and_existing_dirs(tmp_path: Path) -> None:
    result = run("new", "wave-2", "--path", str(tmp_path), "--author", "Ada", home=tmp_path)
    assert result.returncode == 0, result.stderr
    project = tmp_path / "hermes-engine-wave-2"
    pyproject = (project / "pyproject.toml").read_text(encoding="utf-8")
    assert 'wave-2 = "hermes_engine_wave_2:Wave2Engine"' in pyproject
    assert 'dependencies = ["hermes-context>=0.1,<1"]' in pyproject
    assert (project / "hermes_engine_wave_2" / "__init__.py").exists()
    assert "ContextEngineContract" in (project / "tests" / "test_engine.py").read_text("utf-8")
    again = run("new", "wave-2", "--path", str(tmp_path), "--author", "Ada", home=tmp_path)
    assert again.returncode == 2 and "already exists" in again.stderr
    bad = run("new", "../escape", "--path", str(tmp_path), home=tmp_path)
    assert bad.returncode == 2 and "not an engine name" in bad.stderr


def _undefined_globals(text: str, filename: str) -> set[str]:
    """Names the module's code reads as globals that nothing binds: a NameError waiting
    for the first call (a missed import in a template)."""
    top = symtable.symtable(text, filename, "exec")
    bound = {s.get_name() for s in top.get_symbols() if s.is_assigned() or s.is_imported()}
    missing: set[str] = set()
    scopes = [top]
    while scopes:
        scope = scopes.pop()
        scopes.extend(scope.get_children())
        for symbol in scope.get_symbols():
            name = symbol.get_name()
            reads_global = symbol.is_global() or (scope is top and symbol.is_referenced())
            if reads_global and name not in bound and not hasattr(builtins, name):
                missing.add(name)
    return missing


def test_new_refuses_names_that_make_no_python_names_and_generates_code_that_compiles(
    tmp_path: Path,
) -> None:
    for name in ("9", "1abc", "a--b", "a.b"):
        result = run("new", name, "--path", str(tmp_path), home=tmp_path)
        assert result.returncode == 2, name
        assert "cannot name a Python package and class" in result.stderr, name
    assert list(tmp_path.glob("hermes-engine-*")) == []
    made = run("new", "my-engine", "--path", str(tmp_path), "--author", "Ada", home=tmp_path)
    assert made.returncode == 0, made.stderr
    project = tmp_path / "hermes-engine-my-engine"
    assert 'my-engine = "hermes_engine_my_engine:MyEngine"' in (
        project / "pyproject.toml"
    ).read_text(encoding="utf-8")
    for source in project.rglob("*.py"):
        text = source.read_text(encoding="utf-8")
        compile(text, str(source), "exec")
        assert _undefined_globals(text, str(source)) == set(), source
    assert "Parent folder" in run("new", "--help", home=tmp_path).stdout


def test_replay_json_reports_every_pass_and_the_ask(tmp_path: Path) -> None:
    result = run(
        "replay",
        "--engine",
        "lcm",
        "--context-length",
        "16000",
        "--json",
        "--ask",
        "staging database host",
        home=tmp_path,
    )
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert (report["engine"], report["turns"]) == ("lcm", 300)
    assert report["passes"] and all(
        p["tokens_after"] < p["tokens_before"] for p in report["passes"]
    )
    assert report["ask"]["search_tool"] == "lcm_grep"
    assert any("kestrel-17" in r["snippet"] for r in report["ask"]["found"]["results"])
    assert report["ask"]["request"][-1] == {"role": "user", "content": "staging database host"}


def test_replay_says_when_passes_that_free_nothing_are_backed_off(tmp_path: Path) -> None:
    folder = tmp_path / "plugins" / "context_engine" / "stubborn"
    folder.mkdir(parents=True)
    # its compress hands the messages back as they were: every pass frees nothing
    (folder / "__init__.py").write_text(engine_module_source("stubborn"), encoding="utf-8")
    shown = run("replay", "--engine", "stubborn", "--context-length", "16000", home=tmp_path)
    # its requests outgrow the window, which fails the replay; the backoff is said beside it
    assert "passes did not help and backed the next ones off" in shown.stdout, shown.stderr
    report = json.loads(
        run(
            "replay", "--engine", "stubborn", "--context-length", "16000", "--json", home=tmp_path
        ).stdout
    )
    figures = report["figures"]
    assert figures["passes_backed_off"] >= 1 and figures["passes_held"] >= 1
    assert figures["passes_held"] > figures["passes_backed_off"]  # held far more than it ran


def test_text_with_square_brackets_is_shown_as_written_in_tables_lines_and_errors(
    tmp_path: Path, hermes_site: TemporarySite
) -> None:
    hermes_site.add_engine(
        "acme-engine", "acme", engine_module_source("acme", description="Acme [beta] for [bold]x")
    )
    home = tmp_path / "home [1]"
    home.mkdir()
    listed = run("engines", home=home, site=hermes_site.path)
    assert listed.returncode == 0, listed.stderr
    assert "Acme [beta] for [bold]x" in listed.stdout
    selected = run("select", "acme", home=home, site=hermes_site.path)
    assert selected.returncode == 0, selected.stderr
    assert f"in {home / 'config.yaml'}" in selected.stdout
    missing = tmp_path / "[x]" / "c.yaml"
    refused = run("--config", str(missing), "select", "acme", home=home, site=hermes_site.path)
    assert refused.returncode == 2
    assert f"error: {missing.parent} does not exist: {missing} was not created" in refused.stderr


def test_select_refuses_a_folder_that_does_not_exist_unless_told_to_create_it(
    tmp_path: Path,
) -> None:
    path = tmp_path / "no" / "such" / "config.yaml"
    refused = run("--config", str(path), "select", "compressor", home=tmp_path)
    assert refused.returncode == 2 and "pass --create to create it" in refused.stderr
    assert not (tmp_path / "no").exists()
    created = run("--config", str(path), "select", "compressor", "--create", home=tmp_path)
    assert created.returncode == 0, created.stderr
    assert yaml.safe_load(path.read_text(encoding="utf-8")) == {"context": {"engine": "compressor"}}


def test_select_says_when_the_environment_variable_keeps_another_engine_selected(
    tmp_path: Path,
) -> None:
    env = dict(os.environ, HERMES_HOME=str(tmp_path), HERMES_CONTEXT_ENGINE="compressor")
    result = subprocess.run(
        [sys.executable, "-m", "hermes_core", "select", "lcm"],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    assert "selected lcm" in result.stdout
    assert (
        "but environment variable HERMES_CONTEXT_ENGINE selects compressor, and it wins over "
        "the file: unset it to use lcm"
    ) in " ".join(result.stdout.split())
    plain = run("select", "lcm", home=tmp_path)
    assert "wins over the file" not in plain.stdout


def test_say_fills_markup_with_values_that_stay_text() -> None:
    from rich.console import Console

    from hermes_core.cli._output import say

    console = Console(record=True, width=200)
    say(
        "[bold]{name}[/] needs {extra} ({tokens:,} tokens)",
        to=console,
        name="a[/]b",
        extra="hermes-context[plot]",
        tokens=12345,
    )
    assert console.export_text() == "a[/]b needs hermes-context[plot] (12,345 tokens)\n"


@pytest.mark.parametrize("columns", [80, 60, 59, 40])
def test_the_replay_chart_fits_the_terminal_and_gives_way_under_60_columns(
    tmp_path: Path, columns: int
) -> None:
    env = dict(os.environ, HERMES_HOME=str(tmp_path), COLUMNS=str(columns))
    env.pop("HERMES_CONTEXT_ENGINE", None)
    result = subprocess.run(
        [sys.executable, "-m", "hermes_core", "replay"],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert max(len(line) for line in lines) <= columns
    braille = [line for line in lines if any("\u2800" <= c <= "\u28ff" for c in line)]
    if columns >= 60:
        assert len(braille) >= 10  # the chart is there, each row on one line
    else:
        assert braille == []
        assert f"no chart: it needs 60 columns and this terminal has {columns}" in " ".join(
            result.stdout.split()
        )


def test_use_config_runs_the_engine_with_the_users_settings_but_never_their_store(
    tmp_path: Path,
) -> None:
    real_store = tmp_path / "real" / "lcm.db"
    (tmp_path / "config.yaml").write_text(
        f"lcm:\n  leaf_chunk_tokens: 400\n  fresh_tail_messages: 3\n  database: {real_store}\n",
        encoding="utf-8",
    )
    replays = {
        flag: json.loads(run("replay", "--engine", "lcm", "--json", *flag, home=tmp_path).stdout)
        for flag in ((), ("--use-config",))
    }
    # smaller leaves: more passes; a shorter fresh tail: fewer messages in the end
    assert len(replays[("--use-config",)]["passes"]) > len(replays[()]["passes"])
    assert replays[("--use-config",)]["final_messages"] < replays[()]["final_messages"]
    assert not real_store.exists() and not (tmp_path / "lcm").exists()
    assert run("doctor", "lcm", "--use-config", home=tmp_path).returncode == 0
    assert run("engines", "--check", "--use-config", home=tmp_path).returncode == 0
    assert not real_store.exists()


def test_use_config_reports_a_bad_engine_section_with_file_and_line(tmp_path: Path) -> None:
    config = tmp_path / "config.yaml"
    config.write_text("lcm:\n  fresh_tail_messages: 3\n  leaf_chunk_tokens: many\n", "utf-8")
    result = run("replay", "--engine", "lcm", "--use-config", home=tmp_path)
    assert result.returncode == 2
    assert (
        f"{config}:3: key 'lcm.leaf_chunk_tokens' expected a whole number of tokens, 1 or more, "
        "got 'many'"
    ) in " ".join(result.stderr.split())


def _new(
    tmp_path: Path, *args: str, git_name: str | None = None
) -> subprocess.CompletedProcess[str]:
    """``new`` with a git configuration of the test's own (``git_name`` as user.name)."""
    tmp_path.mkdir(parents=True, exist_ok=True)
    git_config = tmp_path / "gitconfig"
    git_config.write_text(
        f"[user]\n\tname = {git_name}\n\temail = dev@example.org\n" if git_name else "",
        encoding="utf-8",
    )
    env = dict(
        os.environ,
        HERMES_HOME=str(tmp_path),
        GIT_CONFIG_GLOBAL=str(git_config),
        GIT_CONFIG_NOSYSTEM="1",
        COLUMNS="200",
    )
    return subprocess.run(
        [sys.executable, "-m", "hermes_core", "new", *args, "--path", str(tmp_path)],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        stdin=subprocess.DEVNULL,
    )


def test_new_writes_a_project_ready_to_publish(tmp_path: Path) -> None:
    result = _new(
        tmp_path,
        "gale",
        "--license",
        "BSD-3-Clause",
        "--url",
        "https://example.org/gale",
        git_name="Grace H",
    )
    assert result.returncode == 0, result.stderr
    project = tmp_path / "hermes-engine-gale"
    pyproject = (project / "pyproject.toml").read_text(encoding="utf-8")
    for line in (
        'license = "BSD-3-Clause"',
        'license-files = ["LICENSE"]',
        'authors = [{ name = "Grace H", email = "dev@example.org" }]',
        'Homepage = "https://example.org/gale"',
        '"Typing :: Typed"',
        'dependencies = ["hermes-context>=0.1,<1"]',
    ):
        assert line in pyproject, line
    licence = (project / "LICENSE").read_text(encoding="utf-8")
    assert licence.startswith("BSD 3-Clause License") and "Grace H" in licence
    assert "dist/" in (project / ".gitignore").read_text(encoding="utf-8")
    workflow = (project / ".github" / "workflows" / "release.yml").read_text(encoding="utf-8")
    assert "python-version: ${{ matrix.python-version }}" in workflow
    assert "id-token: write" in workflow and "pypa/gh-action-pypi-publish" in workflow
    assert "startsWith(github.ref, 'refs/tags/v')" in workflow
    readme = (project / "README.md").read_text(encoding="utf-8")
    # written for the people who install it: pip install first, development last
    assert readme.index("pip install hermes-engine-gale") < readme.index(
        'pip install -e ".[test,dev]"'
    )
    assert "gale:\n  keep_last: 20" in readme
    engine = (project / "hermes_engine_gale" / "__init__.py").read_text(encoding="utf-8")
    assert 'KeyRule(\n        "gale.keep_last"' in engine and "read_section(" in engine


def test_new_takes_the_author_from_git_and_without_one_still_writes_the_project(
    tmp_path: Path,
) -> None:
    made = _new(tmp_path / "a", "gust", git_name="Lin M")
    assert made.returncode == 0
    assert 'pip install -e "' in made.stdout and '[test,dev]"' in made.stdout  # build needs dev
    pyproject = (tmp_path / "a" / "hermes-engine-gust" / "pyproject.toml").read_text("utf-8")
    assert 'name = "Lin M"' in pyproject
    assert "MIT License" in (tmp_path / "a" / "hermes-engine-gust" / "LICENSE").read_text("utf-8")
    # a machine where git has no user.name and nothing can ask: the project, and what to fix
    nobody = _new(tmp_path / "b", "gust")
    assert nobody.returncode == 0, nobody.stderr
    project = tmp_path / "b" / "hermes-engine-gust"
    assert 'name = "Your Name"' in (project / "pyproject.toml").read_text("utf-8")
    said = " ".join(nobody.stdout.split())
    assert "the author's name in pyproject.toml and LICENSE (Your Name;" in said
    assert "--author NAME sets it" in said


def test_new_refuses_the_name_of_an_installed_or_built_in_engine(tmp_path: Path) -> None:
    for taken, source in (("compressor", "hermes-context"), ("lcm", "hermes-engine-lcm")):
        result = _new(tmp_path, taken, git_name="Lin M")
        assert result.returncode == 2
        assert f"engine '{taken}' already exists (distribution {source}" in result.stderr
    assert list(tmp_path.glob("hermes-engine-*")) == []


def test_select_enables_a_present_hermes_plugin_in_the_same_edit_and_says_so(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "plugins" / "tidy-context"
    shutil.copytree(Path(__file__).parent / "fixtures" / "hermes_plugins" / "tidy-context", folder)
    config = tmp_path / "config.yaml"
    config.write_text("# my agent\nplugins:\n  enabled: []  # none yet\n", encoding="utf-8")
    before = run("doctor", "tidy", home=tmp_path)  # present, not enabled: says so
    said = " ".join(before.stdout.split())
    assert before.returncode == 1 and "is not enabled" in said, said
    assert "enabled: [tidy-context]" in said and "hermes-context select tidy" in said
    result = run("select", "tidy", home=tmp_path)
    assert result.returncode == 0, result.stderr + result.stdout
    assert "enabled plugin tidy-context in plugins.enabled" in " ".join(result.stdout.split())
    text = config.read_text(encoding="utf-8")
    assert text.startswith("# my agent\nplugins:\n  enabled: [tidy-context]  # none yet\n")
    assert yaml.safe_load(text) == {
        "plugins": {"enabled": ["tidy-context"]},
        "context": {"engine": "tidy"},
    }
    after = " ".join(run("doctor", "tidy", home=tmp_path).stdout.split())
    assert "ok loads from Hermes Agent plugin tidy-context" in after  # (its LLM is not set)


def test_select_of_a_name_no_plugin_registers_enables_nothing(tmp_path: Path) -> None:
    folder = tmp_path / "plugins" / "tidy-context"
    shutil.copytree(Path(__file__).parent / "fixtures" / "hermes_plugins" / "tidy-context", folder)
    config = tmp_path / "config.yaml"
    config.write_text("plugins:\n  enabled: []\n", encoding="utf-8")
    result = run("select", "nothing-here", home=tmp_path)
    assert result.returncode != 0 and "not installed" in result.stderr + result.stdout
    assert config.read_text(encoding="utf-8") == "plugins:\n  enabled: []\n"


def test_the_cli_reports_the_engine_the_host_runs_when_the_environment_selects_it(
    tmp_path: Path,
) -> None:
    env = dict(os.environ, HERMES_HOME=str(tmp_path), HERMES_CONTEXT_ENGINE="lcm", COLUMNS="200")
    env.pop("HERMES_CONFIG", None)

    def cli(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "hermes_core", *args],
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
        )

    host = subprocess.run(
        [
            sys.executable,
            "-c",
            "from hermes_core import ContextHost; print(ContextHost.from_config().engine_name)",
        ],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    ).stdout.strip()
    listed = json.loads(cli("engines", "--json").stdout)
    doctor = " ".join(cli("doctor").stdout.split())
    assert host == "lcm"
    assert (listed["selected"], listed["used"]) == ("lcm", "lcm")
    assert listed["selected_by"] == "environment variable HERMES_CONTEXT_ENGINE"
    assert doctor.startswith("doctor: engine lcm")


def test_replay_says_how_many_summaries_were_prepared_ahead_and_ready(tmp_path: Path) -> None:
    from tests.servers import ChatServer

    with ChatServer("## Summary\nthe earlier turns") as server:
        (tmp_path / "config.yaml").write_text(
            yaml.safe_dump(
                {
                    "auxiliary": {
                        "compression": {"base_url": server.url, "model": "s", "api_key": "sk-t"}
                    },
                    "compression": {"prepare_at_share": 0.5},
                }
            ),
            encoding="utf-8",
        )
        shown = run("replay", "--context-length", "16000", "--use-config", home=tmp_path)
        as_json = run(
            "replay", "--context-length", "16000", "--use-config", "--json", home=tmp_path
        )
    assert shown.returncode == 0 and as_json.returncode == 0, shown.stderr + as_json.stderr
    figures = json.loads(as_json.stdout)["figures"]
    assert figures["preparations"] > 0 and figures["summaries_ready_at_pass"] > 0
    assert (
        f"compressor: summaries prepared ahead {figures['preparations']} times; at the passes "
        f"{figures['summaries_ready_at_pass']} summaries were ready (no wait)"
    ) in " ".join(shown.stdout.split())

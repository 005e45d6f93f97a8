"""What a first-time user meets on the command line: typos get a guess, a missing file
named with --config is an error, the first ``select`` makes the home, the config sections
of every installed engine are checked where the user looks, each problem once, and
``context.strict`` is described as what the host does: raise."""

from __future__ import annotations

from pathlib import Path

from hermes_core.testing import TemporarySite, engine_module_source
from tests.test_cli import run

TYPOS = "compression:\n  treshold: 0.3\nlcm:\n  fresh_tail_mesages: 4\n  summary_share: 3\n"


def test_a_misspelled_engine_gets_a_guess_everywhere(tmp_path: Path) -> None:
    for args in (("select", "lmc"), ("doctor", "lmc"), ("replay", "--engine", "lmc")):
        result = run(*args, home=tmp_path)
        said = result.stdout + result.stderr
        assert result.returncode != 0, args
        assert "did you mean 'lcm'?" in said and "installed: compressor, lcm" in said, args
    far = run("select", "zzzzzz", home=tmp_path)
    assert far.returncode != 0 and "did you mean" not in far.stderr


def test_a_config_named_but_missing_is_an_error(tmp_path: Path) -> None:
    missing = tmp_path / "missing.yaml"
    for command in ("engines", "doctor", "replay"):
        result = run("--config", str(missing), command, home=tmp_path)
        assert result.returncode == 2, command
        assert f"--config {missing}: no such file" in result.stderr
    made = run("--config", str(missing), "select", "lcm", "--create", home=tmp_path)
    assert made.returncode == 0 and "engine: lcm" in missing.read_text(encoding="utf-8")


def test_hermes_config_naming_a_missing_file_is_the_same_error_as_config(
    tmp_path: Path,
) -> None:
    missing = tmp_path / "nowhere.yaml"
    named = {"HERMES_CONFIG": str(missing)}
    for command in (["engines"], ["doctor"], ["select", "lcm"]):
        result = run(*command, home=tmp_path, environ=named)
        assert result.returncode == 2, (command, result.stdout, result.stderr)
        assert str(missing) in result.stderr and "--create" in result.stderr, command
    assert not missing.exists()  # select made nothing it was not asked to make
    made = run("select", "lcm", "--create", home=tmp_path, environ=named)
    assert made.returncode == 0, made.stderr
    assert "engine: lcm" in missing.read_text(encoding="utf-8")


def test_select_creates_a_named_file_only_when_asked(tmp_path: Path) -> None:
    named = tmp_path / "other.yaml"  # its folder exists, even the home itself
    refused = run("--config", str(named), "select", "lcm", home=tmp_path)
    assert refused.returncode == 2 and "pass --create" in refused.stderr
    assert not named.exists()


def test_plot_to_a_folder_that_does_not_exist_fails_before_the_replay(tmp_path: Path) -> None:
    for target, said in (
        (tmp_path / "no" / "such" / "chart.png", "does not exist; create it"),
        (tmp_path / "a-file" / "chart.svg", "does not exist; create it"),
        (tmp_path, "is a directory"),
    ):
        (tmp_path / "a-file").write_text("", encoding="utf-8")
        result = run("replay", "--plot", str(target), home=tmp_path)
        assert result.returncode == 2 and said in result.stderr, result.stderr
        assert result.stdout == ""  # nothing replayed first
    assert not (tmp_path / "no").exists()  # no folder made on the way


def test_the_first_select_makes_the_home(tmp_path: Path) -> None:
    home = tmp_path / "not-yet" / ".hermes"
    result = run("select", "lcm", home=home)
    assert result.returncode == 0, result.stderr
    assert "engine: lcm" in (home / "config.yaml").read_text(encoding="utf-8")


def test_typos_in_every_engines_section_are_reported_once_with_line_and_guess(
    tmp_path: Path,
) -> None:
    (tmp_path / "config.yaml").write_text(TYPOS, encoding="utf-8")
    config = tmp_path / "config.yaml"
    for command in ("engines", "doctor"):
        result = run(command, home=tmp_path)
        assert result.returncode == 0, (command, result.stderr)
        lines = result.stderr.splitlines()
        for expected in (
            f"{config}:2: unknown key 'compression.treshold' is ignored; did you mean "
            "'compression.threshold'?",
            f"{config}:4: unknown key 'lcm.fresh_tail_mesages' is ignored; did you mean "
            "'lcm.fresh_tail_messages'?",
            f"{config}:5: key 'lcm.summary_share' expected a number greater than 0",
        ):
            shown = [line for line in lines if expected in line and "times, shown" not in line]
            assert len(shown) == 1, (command, expected, result.stderr)
    listed = run("engines", "--json", home=tmp_path)
    assert '"config_problems"' in listed.stdout and "compression.treshold" in listed.stdout


def test_doctor_fails_on_them_in_strict_mode_and_says_the_host_raises(tmp_path: Path) -> None:
    (tmp_path / "config.yaml").write_text(TYPOS + "context:\n  strict: true\n", encoding="utf-8")
    result = run("doctor", home=tmp_path)
    assert result.returncode == 1
    assert "x " in result.stdout and "lcm.fresh_tail_mesages" in result.stdout
    assert "the host raises on them" in result.stdout


def test_strict_mode_names_no_fallback_engine(tmp_path: Path) -> None:
    (tmp_path / "config.yaml").write_text(
        "context:\n  engine: nowhere\n  strict: true\n", encoding="utf-8"
    )
    result = run("engines", home=tmp_path)
    said = result.stdout.replace("\n", " ")
    assert "the host raises instead of using another engine" in said
    assert "the host uses" not in said
    replayed = run("replay", home=tmp_path)
    assert replayed.returncode != 0
    assert "--engine None" not in replayed.stderr and "engine nowhere" in replayed.stderr


def test_a_repeated_warning_is_shown_once_with_its_count(tmp_path: Path) -> None:
    (tmp_path / "config.yaml").write_text("compression:\n  treshold: 0.3\n", encoding="utf-8")
    result = run("doctor", home=tmp_path)  # the contract check builds the engine 22 times
    lines = [line for line in result.stderr.splitlines() if "compression.treshold" in line]
    assert len(lines) == 2, result.stderr  # the warning, and how often it came
    assert lines[1].startswith("(") and "times, shown once:" in lines[1]
    as_json = run("--log-format", "json", "doctor", home=tmp_path)  # machines count lines
    assert as_json.stderr.count("compression.treshold") > 2


FAILING = engine_module_source(
    "fails",
    class_name="Base",
    extra="""

class Engine(Base):
    def compress(self, messages, current_tokens=None, focus_topic=None, **kwargs):
        api_key = "sk-proj-" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6"
        raise RuntimeError(f"the summariser said no (key {api_key})")
""",
)


def test_failed_passes_are_failures_and_debug_shows_the_traceback_redacted(
    tmp_path: Path, hermes_site: TemporarySite
) -> None:
    hermes_site.add_engine("fails-engine", "fails", FAILING)
    args = ("replay", "--engine", "fails", "--context-length", "20000")
    result = run(*args, home=tmp_path, site=hermes_site.path)
    said = " ".join(result.stdout.split())
    assert result.returncode == 1
    assert " 0 compaction passes" in said and "compaction passes failed" in said
    failed = [line for line in result.stderr.splitlines() if "compress_failed" in line]
    assert len(failed) == 2, result.stderr  # once, and once more with its count
    assert failed[1].startswith("(") and "times, shown once: " in failed[1]
    assert "Traceback" not in result.stderr
    debug = run("--debug", *args, home=tmp_path, site=hermes_site.path)
    assert "Traceback (most recent call last)" in debug.stderr
    assert "fails_engine.py" in debug.stderr and 'raise RuntimeError(f"the summariser' in (
        debug.stderr
    )
    assert "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6" not in debug.stderr + debug.stdout


def test_replay_ask_shows_tool_calls_as_calls_and_what_was_recalled(tmp_path: Path) -> None:
    result = run(
        "replay", "--engine", "lcm", "--ask", "which file did we rename first?", home=tmp_path
    )
    assert result.returncode == 0, result.stderr
    said = result.stdout
    shown = said[said.index("what the model would receive") :].split("lcm_grep finds")[0]
    assert "calls read_file(path='src/" in shown
    assert '"tool_calls"' not in shown and '{"path"' not in shown  # no raw JSON
    flat = " ".join(shown.split())
    assert "the agent holds" in flat and "here come from the engine's store" in flat
    assert "the agent's context at the end" in " ".join(said.split())


def test_every_console_log_line_has_one_style(tmp_path: Path) -> None:
    (tmp_path / "config.yaml").write_text("compression:\n  treshold: 0.3\n", encoding="utf-8")
    replayed = run("replay", "--engine", "lcm", "--context-length", "2000", home=tmp_path)
    lines = replayed.stderr.splitlines() + run("doctor", home=tmp_path).stderr.splitlines()
    assert any("context_engine.no_gain engine=lcm" in line for line in lines)  # a raw event
    assert any("did you mean 'compression.threshold'?" in line for line in lines)  # a sentence
    for line in lines:
        assert line.startswith(("warning: ", "(")), line  # never structlog's "[warning  ]"


def test_replay_ask_says_how_the_engine_ranked_what_it_recalls(tmp_path: Path) -> None:
    """With embeddings off the reader is told that ranking was by keywords, and why."""
    from tests.attacks.test_config_cli import run

    done = run(
        "replay", "--engine", "lcm", "--context-length", "16000",
        "--ask", "which host runs the staging database",
        home=tmp_path, HERMES_LCM_EMBEDDING_MODEL="none",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    said = " ".join(done.stdout.split())
    assert "the engine ranked what it recalls by keywords only" in said

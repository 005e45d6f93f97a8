"""Events go through the standard logging tree under ``hermes_core``: a library never prints."""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
from pathlib import Path

from hermes_core import ContextHost
from hermes_core._log import get_logger
from hermes_core.testing import capture_events, sample_conversation

EXAMPLE = Path(__file__).parents[1] / "examples" / "agent_loop.py"


def test_the_example_agent_prints_no_event_on_stdout_or_stderr() -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("HERMES_")}
    result = subprocess.run(
        [sys.executable, str(EXAMPLE)], capture_output=True, text=True, env=env, timeout=300
    )
    assert result.returncode == 0, result.stderr
    assert "compacted" in result.stdout  # the example's own output is there
    assert "context_engine." not in result.stdout + result.stderr


def test_events_reach_a_logging_handler_with_their_fields() -> None:
    host = ContextHost.from_config({"context": {"engine": "nosuch"}}, env={})
    assert host.engine_name == "compressor"
    with capture_events() as capture:
        ContextHost.from_config({"context": {"engine": "nosuch"}}, env={})
    (event,) = capture.named("context_engine.fallback")
    assert (event["requested"], event["reason"], event["used"]) == (
        "nosuch",
        "missing",
        "compressor",
    )
    assert event["logger"] == "hermes_core" and event["log_level"] == "warning"


def test_the_standard_logger_level_silences_events(caplog: object) -> None:
    records: list[logging.LogRecord] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            records.append(record)

    root = logging.getLogger("hermes_core")
    handler = Keep()
    root.addHandler(handler)
    previous = root.level
    try:
        root.setLevel(logging.ERROR)
        ContextHost.from_config({"context": {"engine": "nosuch"}}, env={})
        assert records == []
        root.setLevel(logging.WARNING)
        ContextHost.from_config({"context": {"engine": "nosuch"}}, env={})
        assert [r.hermes_event for r in records] == ["context_engine.fallback"]  # type: ignore[attr-defined]
        assert "requested=nosuch" in records[0].getMessage()
    finally:
        root.removeHandler(handler)
        root.setLevel(previous)


def test_field_names_that_are_logrecord_attributes_do_not_break_logging() -> None:
    with capture_events() as capture:
        get_logger("hermes_core.engines.demo").warning(
            "demo.event", name="x", message="hello world", args=(1,)
        )
    (event,) = capture.named("demo.event")
    assert (event["name"], event["message"], event["args"]) == ("x", "hello world", (1,))
    assert event["logger"] == "hermes_core.engines.demo"


def test_a_pass_logs_its_event_only_when_asked_for() -> None:
    host = ContextHost.from_config({"context": {"engine": "compressor"}}, env={})
    host.update_model("m", 4_000)
    with capture_events(logging.WARNING) as quiet:
        host.compress(sample_conversation(40), current_tokens=3_900)
    assert quiet.named("context_engine.compressed") == []
    with capture_events(logging.INFO) as loud:
        host.compress(sample_conversation(40), current_tokens=3_900)
    assert loud.named("context_engine.compressed")


def run_cli(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("HERMES_")}
    return subprocess.run(
        [sys.executable, "-m", "hermes_core", *args],
        capture_output=True,
        text=True,
        env={**clean, **env},
        timeout=120,
    )


def test_the_command_line_writes_events_to_stderr_as_json_on_request(tmp_path: Path) -> None:
    (tmp_path / "config.yaml").write_text("context:\n  strict: maybe\n", encoding="utf-8")
    for result in (
        run_cli("--log-format", "json", "engines", HERMES_HOME=str(tmp_path)),
        run_cli("engines", HERMES_HOME=str(tmp_path), HERMES_LOG_FORMAT="json"),
    ):
        lines = [json.loads(line) for line in result.stderr.splitlines() if line.startswith("{")]
        assert lines, result.stderr
        assert all(line["logger"].startswith("hermes_core") for line in lines)
        assert "context_engine." not in result.stdout
    console = run_cli("--config", str(tmp_path / "config.yaml"), "engines")
    assert "context_engine" not in console.stdout


def test_version_prints_the_installed_version() -> None:
    from hermes_core import __version__

    result = run_cli("--version")
    assert (
        result.returncode == 0 and result.stdout.strip() == f"hermes-context, version {__version__}"
    )


def test_a_warning_is_not_printed_when_the_application_configured_no_logging() -> None:
    script = (
        "from hermes_core import ContextHost\n"
        "host = ContextHost.from_config({'context': {'engine': 'not-installed'}}, env={})\n"
        "print(host.engine_name)\n"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("HERMES_")}
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=120
    )
    assert (result.returncode, result.stdout.strip()) == (0, "compressor")
    assert result.stderr == ""  # logging's last resort would have printed the fallback


def test_debugging_says_whether_debug_events_are_written() -> None:
    import logging

    from hermes_core._log import LOGGER_NAME, get_logger

    events = get_logger()
    root = logging.getLogger(LOGGER_NAME)
    before = root.level
    try:
        root.setLevel(logging.WARNING)
        assert not events.debugging()
        root.setLevel(logging.DEBUG)
        assert events.debugging()
    finally:
        root.setLevel(before)

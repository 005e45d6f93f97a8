"""One answer to "which engine runs": every command resolves the selection as
``ContextHost.from_config()`` does, under each combination of the environment
variable, the config file, the default and strict mode."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest

from hermes_core import ContextHost
from hermes_core._errors import HermesError
from hermes_core.cli import main
from tests.attacks.test_config_cli import run

CHOICES = (None, "lcm", "nowhere")  # unset, an installed engine, one that is not


def _host_runs(home: Path) -> str | None:
    """The engine the host builds, or None when it raises."""
    try:
        host = ContextHost.from_config()
    except HermesError:
        return None
    try:
        return host.engine_name
    finally:
        host.close()


@pytest.mark.parametrize(
    ("from_env", "in_file", "strict"), list(itertools.product(CHOICES, CHOICES, (False, True)))
)
def test_every_command_reports_the_engine_the_host_runs(
    from_env: str | None,
    in_file: str | None,
    strict: bool,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("HERMES_HOME", str(tmp_path))
    monkeypatch.delenv("HERMES_CONFIG", raising=False)
    monkeypatch.setenv("COLUMNS", "200")
    if from_env is None:
        monkeypatch.delenv("HERMES_CONTEXT_ENGINE", raising=False)
    else:
        monkeypatch.setenv("HERMES_CONTEXT_ENGINE", from_env)
    lines = [f"  engine: {in_file}"] if in_file else []
    lines += ["  strict: true"] if strict else []
    if lines:
        (tmp_path / "config.yaml").write_text("context:\n" + "\n".join(lines) + "\n", "utf-8")
    chat = tmp_path / "chat.jsonl"
    chat.write_text(
        '{"role": "user", "content": "hello"}\n{"role": "assistant", "content": "hi"}\n',
        encoding="utf-8",
    )
    selected = from_env or in_file or "compressor"
    runs = _host_runs(tmp_path)
    assert runs == (selected if selected != "nowhere" else (None if strict else "compressor"))

    capsys.readouterr()
    main(["engines", "--json"])
    listed = json.loads(capsys.readouterr().out)
    assert (listed["selected"], listed["used"]) == (selected, runs)

    main(["doctor"])
    assert capsys.readouterr().out.startswith(f"doctor: engine {selected}\n")

    code = main(["replay", str(chat), "--json"])
    replayed = capsys.readouterr()
    if runs is None:
        assert code != 0 and f"engine {selected}" in replayed.err
        assert "--engine None" not in replayed.err
    else:
        assert code == 0 and json.loads(replayed.out)["engine"] == runs


def test_engines_and_doctor_say_what_runs_when_engine_source_provides_no_such_engine(
    tmp_path: Path,
) -> None:
    (tmp_path / "config.yaml").write_text(
        "context:\n  engine: lcm\n  engine_source: tidy\n", encoding="utf-8"
    )
    listed = run("engines", "--json", home=tmp_path)
    report = json.loads(listed.stdout)
    assert report["selected"] == "lcm" and report["used"] == "compressor"
    assert "engine_source" in report["selection_problem"]
    shown = run("engines", home=tmp_path)
    assert "the host uses compressor instead" in " ".join(shown.stdout.split())
    doctor = run("doctor", home=tmp_path)
    assert doctor.returncode == 1
    assert "the host will run compressor, not lcm" in " ".join(doctor.stdout.split())

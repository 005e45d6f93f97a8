"""``hermes-context sessions`` and ``replay --hermes-session`` on a store: what they print,
what --json carries (positions, not text, unless --include-text), and their errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hermes_core.cli import main
from tests.hermes_sessions.test_store import make_store

SECRET = "sk-proj-" + "Qx7" * 12


@pytest.fixture
def home(tmp_path: Path) -> Path:
    db = make_store(tmp_path / "state.db")
    for n in range(30):
        said = f"step {n}"
        if n == 1:
            said = f"From now on, keep answers short. The key {SECRET} is in /srv/keys/k_9.pem"
        if n == 27:
            said = "Which file was it, /srv/keys/k_9.pem?"
        for role, text in (("user", said), ("assistant", f"ok {n}")):
            db.execute(
                "INSERT INTO messages (session_id, role, content, timestamp) VALUES "
                "('s2', ?, ?, 0)",
                (role, text),
            )
    db.close()
    return tmp_path


def test_sessions_lists_them(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sessions", "--hermes-home", str(home)]) == 0
    said = capsys.readouterr().out
    assert "s1" in said and "s2" in said and "rotated" in said
    assert main(["sessions", "--hermes-home", str(home), "--json"]) == 0
    assert {s["id"] for s in json.loads(capsys.readouterr().out)} == {"s1", "s2"}


def test_replay_compares_engines_with_positions_not_text(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["replay", "--hermes-session", "s2", "--hermes-home", str(home), "--json"]
    assert main([*args, "--context-length", "8000"]) == 0
    out = capsys.readouterr().out
    report = json.loads(out)["sessions"][0]
    assert {e["engine"] for e in report["engines"]} == {"compressor", "lcm"}
    assert report["messages"] == 66  # s1's four, then s2's own two and sixty more
    kinds = sorted({p["kind"] for p in report["probes"]})
    assert kinds == ["rare_token", "standing_instruction"]
    assert "k_9.pem" not in out and SECRET not in out and "text" not in report["probes"][0]
    assert main([*args, "--context-length", "8000", "--include-text"]) == 0
    with_text = capsys.readouterr().out
    assert "/srv/keys/k_9.pem" in with_text and SECRET not in with_text  # redacted


def test_replay_prints_a_table_and_a_recommendation(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["replay", "--hermes-session", "s2", "--hermes-home", str(home)]
    assert main([*args, "--engines", "compressor,lcm", "--context-length", "8000"]) == 0
    said = " ".join(capsys.readouterr().out.split())
    assert "requests over the window" in said and "recommendation:" in said
    assert "rare token from message" in said and SECRET not in said


def test_unknown_sessions_and_engines_are_clear_errors(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    base = ["replay", "--hermes-home", str(home)]
    assert main([*base, "--hermes-session", "nope"]) == 2
    assert "no session 'nope'" in capsys.readouterr().err
    assert main([*base, "--hermes-session", "s2", "--engines", "lmc"]) == 2
    assert "did you mean 'lcm'?" in capsys.readouterr().err


def test_plot_draws_every_engine_on_one_chart(
    home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    chart = tmp_path / "side-by-side.svg"
    args = ["replay", "--hermes-session", "s2", "--hermes-home", str(home)]
    assert main([*args, "--context-length", "8000", "--plot", str(chart)]) == 0
    drawn = chart.read_text(encoding="utf-8")
    assert "compressor" in drawn and "lcm" in drawn and "request budget" in drawn
    # the terminal may wrap the path anywhere: compare without the line breaks
    assert f"chartwrittento{chart}" in "".join(capsys.readouterr().out.split())


def test_the_summariser_named_is_the_configured_llm(
    home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "with-llm.yaml"
    config.write_text(
        "auxiliary:\n  compression:\n    provider: custom\n    base_url: http://127.0.0.1:9/v1\n"
        "    model: aux-model\n    api_key: sk-test\n",
        encoding="utf-8",
    )
    args = ["replay", "--hermes-session", "s2", "--hermes-home", str(home), "--json"]
    assert main(["--config", str(config), *args, "--context-length", "8000"]) == 0
    engines = json.loads(capsys.readouterr().out)["sessions"][0]["engines"]
    assert {e["summarizer"] for e in engines} == {"LLM aux-model"}
    assert main([*args, "--context-length", "8000"]) == 0
    engines = json.loads(capsys.readouterr().out)["sessions"][0]["engines"]
    assert {e["summarizer"].split(":")[0] for e in engines} == {"no LLM configured"}


def test_replay_runs_at_the_window_config_yaml_gives_the_model(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = home / "config.yaml"
    config.write_text("model:\n  context_length: 9000\n", encoding="utf-8")
    args = ["--config", str(config), "replay", "--hermes-session", "s2", "--json"]
    assert main([*args, "--hermes-home", str(home), "--engines", "compressor"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["window"] == 9000
    assert report["window_from"].startswith("model.context_length in ")


def test_the_sample_store_lists_and_replays_with_one_command_each(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["sessions", "--sample", "--json"]) == 0
    (session,) = json.loads(capsys.readouterr().out)
    assert session["compactions"] >= 2  # Hermes compacted it, running lcm
    args = ["replay", "--hermes-sessions", "1", "--sample", "--engines", "compressor", "--json"]
    assert main(args) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["window"] == 64_000 and report["sessions"][0]["messages"] == 80
    assert report["sessions"][0]["hermes"]["compactions"] == session["compactions"]
    assert main(["replay", "--sample"]) == 2
    assert "--sample goes with --hermes-session" in capsys.readouterr().err

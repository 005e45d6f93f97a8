"""``hermes-context lcm status``: the user's store, and how far its embedding is, told in
words: vectors out of messages, the backlog, the rate this machine embeds at and the time
left. The store is the user's own ($HERMES_HOME); the command stores no vectors."""

from __future__ import annotations

from pathlib import Path

import pytest
from hermes_engine_lcm import LCMEngine

from hermes_core.cli import main
from tests.lcm.test_embeddings import _chat


def _status(capsys: pytest.CaptureFixture[str]) -> str:
    capsys.readouterr()
    assert main(["lcm", "status"]) == 0
    return capsys.readouterr().out


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("HERMES_HOME", str(tmp_path))
    monkeypatch.delenv("HERMES_CONFIG", raising=False)
    monkeypatch.delenv("HERMES_LCM_EMBEDDING_MODEL")  # the user's default: auto
    return tmp_path


def test_no_store_yet_is_said_and_nothing_is_made(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    said = _status(capsys)
    assert f"none yet at {home / 'lcm' / 'lcm.db'}" in said
    assert not (home / "lcm").exists()


def test_a_backlog_is_counted_with_its_rate_and_time_left(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    engine = LCMEngine({"lcm": {"embedding_model": "none"}}, hermes_home=home)
    engine.on_turn_complete(_chat(50))  # 101 messages stored, none embedded
    engine.close()
    said = _status(capsys)
    assert "relevance by meaning: all-MiniLM-L6-v2" in said
    assert "vectors: 0 of 101 messages stored" in said
    assert "backlog: 101 messages" in said
    assert "messages a second here; time left: about " in said
    assert "vectors: 0 of 101" in _status(capsys)  # the rate is measured, nothing stored

    engine = LCMEngine({"lcm": {"embedding_model": "auto"}}, hermes_home=home)
    assert engine.flush_embeddings(300)
    engine.close()
    said = _status(capsys)
    assert "vectors: 101 of 101 messages stored" in said and "backlog: none" in said


def test_off_says_why_and_what_ranks(
    home: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    LCMEngine({}, hermes_home=home).close()
    (home / "config.yaml").write_text("lcm:\n  embedding_model: none\n", encoding="utf-8")
    said = _status(capsys)
    assert "relevance by meaning: off (lcm.embedding_model is 'none'); keywords rank" in said

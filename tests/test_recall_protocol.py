"""The recall benchmark's protocol on a small LoCoMo-format file (the real ones stay outside)."""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

from recall.baselines import pack_in_order, truncate
from recall.bm25 import BM25
from recall.locomo import load
from recall.protocol import ask, replay, request_tokens, scores


def locomo_file(tmp_path: Path) -> Path:
    turns = [
        {"speaker": "Ann", "dia_id": f"D1:{i}", "text": f"Small talk number {i} about the weather."}
        for i in range(1, 40)
    ]
    turns[4]["text"] = "I adopted a grey cat called Pepper last spring."
    turns[5]["blip_caption"] = "a photo of a cat on a sofa"
    data = {
        "speaker_a": "Ann",
        "speaker_b": "Bo",
        "session_1_date_time": "9 am on 1 May, 2023",
        "session_1": [dict(t, speaker="Ann" if i % 2 == 0 else "Bo") for i, t in enumerate(turns)],
        "qa": [
            {"question": "What is the name of Ann's cat?", "evidence": ["D1:5"], "category": 1},
            {"question": "Two at once?", "evidence": ["D1:5; D1:6"], "category": 2},
            {"question": "Unanswerable", "evidence": [], "category": 3},
            {"question": "Adversarial", "evidence": ["D1:5"], "category": 5},
            {"question": "Missing turn", "evidence": ["D9:1"], "category": 4},
        ],
    }
    path = tmp_path / "99.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_a_file_becomes_messages_and_answerable_questions(tmp_path: Path) -> None:
    conversation = load(locomo_file(tmp_path))
    assert conversation.messages[0]["role"] == "system" and len(conversation.turns) == 39
    assert conversation.turns[0] == {
        "role": "user",
        "content": "[9 am on 1 May, 2023] Ann: Small talk number 1 about the weather.",
    }
    assert conversation.turns[5]["content"].endswith("[shares a photo: a photo of a cat on a sofa]")
    # category 5, empty and unknown evidence are left out; "D1:5; D1:6" is two turns
    assert [q.text for q in conversation.questions] == [
        "What is the name of Ann's cat?",
        "Two at once?",
    ]
    assert len(conversation.questions[1].evidence) == 2


def test_a_question_scores_only_with_its_evidence_inside_the_budget(tmp_path: Path) -> None:
    conversation = load(locomo_file(tmp_path))
    question = conversation.questions[0]
    order = BM25([m["content"] for m in conversation.turns]).ranking(question.text)
    packed = pack_in_order(conversation, question, 200, order)
    assert scores(packed, question, 200) and request_tokens(packed) <= 200
    assert not scores(packed, question, request_tokens(packed) - 1)  # over budget: 0
    assert not scores(truncate(conversation, question, 200), question, 200)  # too old for it


def test_an_engine_is_replayed_then_asked_from_a_fresh_copy(tmp_path: Path) -> None:
    conversation = load(locomo_file(tmp_path))
    result = replay(conversation, "lcm", 600, tmp_path / "home")
    assert result.turns == 39 and result.model_calls > 0 and result.over_window == 0
    question = conversation.questions[0]
    first = ask(result, question)
    assert scores(first, question, 600)
    assert ask(result, question) == first  # the first question left no trace


def test_bm25_gives_a_word_in_most_turns_a_small_positive_weight() -> None:
    """As rank-bm25's BM25Okapi: a word in more than half the turns does not count against
    a turn (a negative idf), it counts a quarter of the average idf."""

    index = BM25(["the cat sat", "the dog ran", "the owl slept", "a bee buzzed"])
    rare = math.log(3.5 / 1.5)  # the nine words in one turn; "the" in three: -rare
    assert index.idf["the"] == pytest.approx(0.25 * (9 * rare - rare) / 10)
    assert index.idf["cat"] == pytest.approx(rare)
    assert index.scores("the")[3] == 0 < index.scores("the")[0]


def test_each_lcm_column_runs_as_it_is_labelled_whatever_the_config_says(tmp_path: Path) -> None:
    """The keyword column runs without embeddings and the MiniLM column with the model,
    even when the config given names another model; the user's other lcm settings stay."""
    from recall.run import variants

    config = {"lcm": {"embedding_model": "/somewhere/else", "summary_share": 0.2}}
    columns = {v.label: v.config for v in variants(["compressor", "lcm"], config, tmp_path)}
    assert columns["compressor"] == config
    share = {"summary_share": 0.2}
    assert columns["lcm by keywords"] == {"lcm": {"embedding_model": "none", **share}}
    assert columns["lcm+MiniLM"] == {"lcm": {"embedding_model": str(tmp_path), **share}}
    assert config["lcm"]["embedding_model"] == "/somewhere/else"  # the caller's, unchanged

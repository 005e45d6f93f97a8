"""Sentence embeddings from a BERT sentence-transformers model, run with numpy alone.

all-MiniLM-L6-v2, the usual default of vector memories, is a 6-layer BERT
with mean pooling. Running it needs its weights (``model.safetensors``), its
tokenizer (``tokenizer.json``, run by the Rust ``tokenizers`` package) and
a few matrix products: no torch, which with sentence-transformers would
install about 6 GB. A model is a folder, or a zip of one, as
sentence-transformers saves it.
"""

from __future__ import annotations

import hashlib
import math
import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from hermes_engine_lcm.relevance import native
from hermes_engine_lcm.relevance.errors import ModelError
from hermes_engine_lcm.relevance.files import ModelFiles

__all__ = ["ModelError", "SentenceEncoder"]

#: Texts encoded together: bounds the memory of one forward pass (batch x tokens x 1,536).
BATCH = 32
#: An encoding of this many texts or fewer is a query an agent waits for: its native jobs
#: go before the background worker's.
URGENT_TEXTS = 4
#: Texts whose vectors are kept, by a digest of the text (about 1.6 KB each: 32 MB at most,
#: however long the texts).
KEPT_TEXTS = 20_000
#: Characters of a text the tokenizer sees, per token the model reads: a word piece is at
#: most 100 characters (BERT's max_input_chars_per_word; a longer word is one [UNK]), so
#: the cut never changes what the model reads, and a megabyte paste costs what 32 KB do.
CHARS_PER_TOKEN = 128


def _layer_norm(x: np.ndarray, weight: np.ndarray, bias: np.ndarray, eps: float) -> np.ndarray:
    mean = x.mean(-1, keepdims=True)
    var = ((x - mean) ** 2).mean(-1, keepdims=True)
    normed: np.ndarray = (x - mean) / np.sqrt(var + eps) * weight + bias
    return normed


def _gelu(x: np.ndarray) -> np.ndarray:
    """BERT's exact GELU, x * Phi(x), with erf to 1.5e-7 (Abramowitz and Stegun 7.1.26)."""
    z = np.abs(x) / math.sqrt(2.0)
    t = 1.0 / (1.0 + 0.3275911 * z)
    poly = t * (
        0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429)))
    )
    erf = np.sign(x) * (1.0 - poly * np.exp(-z * z))
    out: np.ndarray = 0.5 * x * (1.0 + erf)
    return out


@dataclass(frozen=True)
class _Layer:
    """One transformer layer: linear weights stored transposed (in x out), norms as read."""

    query: tuple[np.ndarray, np.ndarray]
    key: tuple[np.ndarray, np.ndarray]
    value: tuple[np.ndarray, np.ndarray]
    attention_out: tuple[np.ndarray, np.ndarray]
    attention_norm: tuple[np.ndarray, np.ndarray]
    intermediate: tuple[np.ndarray, np.ndarray]
    output: tuple[np.ndarray, np.ndarray]
    output_norm: tuple[np.ndarray, np.ndarray]


def _readable(text: str) -> str:
    """``text`` as the tokenizer can take it: what UTF-8 cannot hold (a lone surrogate)
    becomes ``?``."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-8", "replace").decode("utf-8")
    return text


class SentenceEncoder:
    """Encodes texts into L2-normalised vectors (mean of the last layer over real tokens)."""

    def __init__(self, location: Path) -> None:
        from safetensors.numpy import load
        from tokenizers import Tokenizer

        files = ModelFiles(location)
        config = files.json("config.json")
        if config.get("model_type") != "bert":
            kind = repr(config.get("model_type"))
            kind = kind if len(kind) <= 40 else kind[:37] + "..."
            raise ModelError(
                f"{location}: a {kind} model; only BERT sentence encoders "
                "(all-MiniLM-L6-v2 and its kind) run here"
            )
        pooling = files.json("1_Pooling/config.json", {"pooling_mode_mean_tokens": True})
        if not pooling.get("pooling_mode_mean_tokens"):
            raise ModelError(f"{location}: only mean pooling is supported")
        limit = files.json("sentence_bert_config.json", {"max_seq_length": 256})
        self.location = location
        self.heads = int(config["num_attention_heads"])
        self.eps = float(config.get("layer_norm_eps", 1e-12))
        self.max_tokens = min(int(limit["max_seq_length"]), int(config["max_position_embeddings"]))
        weights = load(files.read("model.safetensors"))
        prefix = "bert." if "bert.embeddings.word_embeddings.weight" in weights else ""

        def pair(name: str) -> tuple[np.ndarray, np.ndarray]:
            return (
                weights[f"{prefix}{name}.weight"].astype(np.float32),
                weights[f"{prefix}{name}.bias"].astype(np.float32),
            )

        def dense(name: str) -> tuple[np.ndarray, np.ndarray]:
            """A linear layer's weight transposed once, contiguous (x @ w runs on BLAS
            without a strided view each call), and its bias."""
            weight, bias = pair(name)
            return np.ascontiguousarray(weight.T), bias

        self.words = weights[f"{prefix}embeddings.word_embeddings.weight"].astype(np.float32)
        self.positions = weights[f"{prefix}embeddings.position_embeddings.weight"].astype(
            np.float32
        )
        self.token_type = weights[f"{prefix}embeddings.token_type_embeddings.weight"][0].astype(
            np.float32
        )
        self.embedding_norm = pair("embeddings.LayerNorm")
        self.layers = [
            _Layer(
                query=dense(f"encoder.layer.{i}.attention.self.query"),
                key=dense(f"encoder.layer.{i}.attention.self.key"),
                value=dense(f"encoder.layer.{i}.attention.self.value"),
                attention_out=dense(f"encoder.layer.{i}.attention.output.dense"),
                attention_norm=pair(f"encoder.layer.{i}.attention.output.LayerNorm"),
                intermediate=dense(f"encoder.layer.{i}.intermediate.dense"),
                output=dense(f"encoder.layer.{i}.output.dense"),
                output_norm=pair(f"encoder.layer.{i}.output.LayerNorm"),
            )
            for i in range(int(config["num_hidden_layers"]))
        ]
        self.dimensions = self.words.shape[1]
        self.tokenizer = Tokenizer.from_str(files.read("tokenizer.json").decode("utf-8"))
        self.tokenizer.enable_truncation(self.max_tokens)
        self.tokenizer.no_padding()
        #: The model's files as read (names and bytes) and its width: the same model reached
        #: by any name or path has the same fingerprint, a model changed in place another.
        self.fingerprint = f"{files.digest()}-{self.dimensions}"
        self._recent: OrderedDict[bytes, np.ndarray] = OrderedDict()
        self._lock = threading.Lock()

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        """One row per text, float32, unit length; shorter texts batched together. A text
        encoded lately is not encoded again (the same turn stored in several sessions or
        stores, a question asked again)."""
        out = np.zeros((len(texts), self.dimensions), dtype=np.float32)
        todo: dict[bytes, tuple[str, list[int]]] = {}
        cut = self.max_tokens * CHARS_PER_TOKEN
        with self._lock:
            for row, text in enumerate(texts):
                readable = _readable(text[:cut])
                key = hashlib.blake2b(readable.encode("utf-8"), digest_size=16).digest()
                known = self._recent.get(key)
                if known is None:
                    todo.setdefault(key, (readable, []))[1].append(row)
                else:
                    out[row] = known
        if not todo:
            return out
        keys = list(todo)
        # native code (the tokenizer, BLAS) runs on the process's one native thread, in
        # jobs of BATCH texts at most; a few texts are a query an agent waits for: urgent
        urgent = len(keys) <= URGENT_TEXTS
        encodings = native.run(
            self.tokenizer.encode_batch, [todo[key][0] for key in keys], urgent=urgent
        )
        order = sorted(range(len(keys)), key=lambda i: len(encodings[i].ids))
        vectors = np.zeros((len(keys), self.dimensions), dtype=np.float32)
        for start in range(0, len(order), BATCH):
            chosen = order[start : start + BATCH]
            batch = [encodings[i].ids for i in chosen]
            vectors[chosen] = native.run(self._forward, batch, urgent=urgent)
        with self._lock:
            for key, vector in zip(keys, vectors, strict=True):
                out[todo[key][1]] = vector
                self._recent[key] = vector
            while len(self._recent) > KEPT_TEXTS:
                self._recent.popitem(last=False)
        return out

    def _forward(self, batch: list[list[int]]) -> np.ndarray:
        width = max(len(ids) for ids in batch)
        ids = np.zeros((len(batch), width), dtype=np.int64)
        mask = np.zeros((len(batch), width), dtype=np.float32)
        for row, tokens in enumerate(batch):
            ids[row, : len(tokens)] = tokens
            mask[row, : len(tokens)] = 1.0
        x = self.words[ids] + self.positions[:width] + self.token_type
        x = _layer_norm(x, *self.embedding_norm, self.eps)
        bias = (1.0 - mask)[:, None, None, :] * np.float32(-1e9)
        for layer in self.layers:
            x = self._layer(x, layer, bias)
        summed = (x * mask[:, :, None]).sum(1)
        pooled = summed / np.maximum(mask.sum(1, keepdims=True), 1e-9)
        norms = np.linalg.norm(pooled, axis=1, keepdims=True)
        unit: np.ndarray = (pooled / np.maximum(norms, 1e-12)).astype(np.float32)
        return unit

    def _layer(self, x: np.ndarray, layer: _Layer, bias: np.ndarray) -> np.ndarray:
        batch, width, hidden = x.shape
        size = hidden // self.heads
        flat = x.reshape(batch * width, hidden)  # one BLAS call per matrix, not per text

        def heads(weight_bias: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
            weight, b = weight_bias
            projected: np.ndarray = (flat @ weight + b).reshape(batch, width, self.heads, size)
            split: np.ndarray = projected.transpose(0, 2, 1, 3)
            return split

        q, k, v = heads(layer.query), heads(layer.key), heads(layer.value)
        scores = q @ k.transpose(0, 1, 3, 2) / np.float32(math.sqrt(size)) + bias
        scores -= scores.max(-1, keepdims=True)
        weights = np.exp(scores)
        weights /= weights.sum(-1, keepdims=True)
        context = (weights @ v).transpose(0, 2, 1, 3).reshape(batch * width, hidden)
        out_w, out_b = layer.attention_out
        flat = _layer_norm(context @ out_w + out_b + flat, *layer.attention_norm, self.eps)
        in_w, in_b = layer.intermediate
        ff_w, ff_b = layer.output
        hidden_state: np.ndarray = _gelu(flat @ in_w + in_b) @ ff_w + ff_b
        out = _layer_norm(hidden_state + flat, *layer.output_norm, self.eps)
        return out.reshape(batch, width, hidden)

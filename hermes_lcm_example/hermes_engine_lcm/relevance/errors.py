"""The error of a model that cannot be used here (importable without numpy)."""

from __future__ import annotations

__all__ = ["ModelError", "missing_extra"]


class ModelError(RuntimeError):
    """A model that cannot be loaded here; the message says which file and what to do."""


def missing_extra(exc: ImportError) -> ModelError:
    """The error for an install without ``hermes-engine-lcm[embeddings]``."""
    return ModelError(
        f"embeddings need pip install 'hermes-engine-lcm[embeddings]' (numpy, tokenizers, "
        f"safetensors): {exc}"
    )

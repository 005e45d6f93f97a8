"""The error of a model that cannot be used here (importable without numpy)."""

from __future__ import annotations

from hermes_engine_lcm.errors import ModelError

__all__ = ["ModelError", "missing_extra"]


def missing_extra(exc: ImportError) -> ModelError:
    """The error for an install without ``hermes-engine-lcm[embeddings]``."""
    return ModelError(
        f"embeddings need pip install 'hermes-engine-lcm[embeddings]' (numpy, tokenizers, "
        f"safetensors): {exc}"
    )

"""Per-model compression thresholds (``compression.model_thresholds``)."""

from __future__ import annotations

from collections.abc import Mapping

__all__ = ["resolve_model_threshold"]


def resolve_model_threshold(
    model: str,
    thresholds: Mapping[str, float] | None,
    default: float,
    provider: str = "",
) -> float:
    """Return the threshold fraction that applies to ``model``.

    A key matches when it is a substring of the model name (case-insensitive);
    the longest matching key wins. A key may be scoped to a provider as
    ``"<provider>:<substring>"``: it only matches when ``provider`` is that
    provider, and it beats a bare key of the same substring length. When no
    key matches, ``default`` (the engine's configured threshold) is returned,
    never a previously applied override.
    """
    if not thresholds or not model:
        return default
    model_lower = model.lower()
    provider_lower = provider.lower()
    best_rank: tuple[int, int] | None = None
    best_value = default
    for key, value in thresholds.items():
        key_lower = key.lower()
        # Model names may contain ":" themselves ("qwen2.5:14b"), so a key is
        # tried both as a bare substring and as "<provider>:<substring>".
        candidates: list[tuple[int, int]] = []
        if key_lower and key_lower in model_lower:
            candidates.append((len(key_lower), 0))
        scope, sep, substring = key_lower.partition(":")
        if sep and scope and substring and scope == provider_lower and substring in model_lower:
            candidates.append((len(substring), 1))
        for rank in candidates:
            if best_rank is None or rank > best_rank:
                best_rank = rank
                best_value = float(value)
    return best_value

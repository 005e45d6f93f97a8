"""The model's window, which the host needs before the first request: shared by the
frameworks' integrations."""

from __future__ import annotations

from hermes_core.host import ContextHost

__all__ = ["configured_window"]


def configured_window(host: ContextHost, given: int | None, who: str) -> int:
    """``given``, else ``model.context_length`` in the host's config.yaml; a ValueError
    naming both when neither says it (a guessed window lets requests overflow)."""
    if given is not None:
        return int(given)
    length = host.config.model_context_length
    if length is not None:
        return length
    raise ValueError(
        f"{who} does not know the model's window: pass context_length=, or set "
        f"model.context_length in {host.config.label}"
    )

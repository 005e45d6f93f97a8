"""Which window the agent's model has: the one number the host needs before a call."""

from __future__ import annotations

from typing import Any

from hermes_core.host import ContextHost

__all__ = ["model_window"]


def model_window(host: ContextHost, model: Any, given: int | None) -> tuple[str, int]:
    """The model's name and its whole window: ``given``, else the chat model's profile
    (``max_input_tokens``), else ``model.context_length`` in the host's config.yaml.

    Raises ValueError, naming the three places, when none says it: a guessed window
    would let requests overflow the real one."""
    name = str(
        getattr(model, "model_name", None) or getattr(model, "model", None) or type(model).__name__
    )
    if given is not None:
        return name, int(given)
    profile = getattr(model, "profile", None)
    if isinstance(profile, dict) and isinstance(profile.get("max_input_tokens"), int):
        return name, int(profile["max_input_tokens"])
    section = host.config.data.get("model")
    length = section.get("context_length") if isinstance(section, dict) else None
    if isinstance(length, int) and length > 0:
        return name, length
    raise ValueError(
        f"ContextEngineMiddleware does not know the window of model {name!r}: pass "
        "context_length= to ContextEngineMiddleware, or set model.context_length in "
        f"{host.config.label} (the model's profile has no max_input_tokens)"
    )

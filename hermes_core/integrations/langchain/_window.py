"""Which window the agent's model has: the one number the host needs before a call."""

from __future__ import annotations

from typing import Any

from hermes_core.host import ContextHost
from hermes_core.integrations._window import configured_window

__all__ = ["model_window"]


def model_window(host: ContextHost, model: Any, given: int | None) -> tuple[str, int]:
    """The model's name and its whole window: ``given``, else the chat model's profile
    (``max_input_tokens``), else ``model.context_length`` in the host's config.yaml.

    Raises ValueError, naming where to set it, when none says it."""
    name = str(
        getattr(model, "model_name", None) or getattr(model, "model", None) or type(model).__name__
    )
    profile = getattr(model, "profile", None)
    known = profile.get("max_input_tokens") if isinstance(profile, dict) else None
    if given is None and isinstance(known, int):
        return name, known
    who = f"ContextEngineMiddleware (model {name!r}, whose profile has no max_input_tokens)"
    return name, configured_window(host, given, who)

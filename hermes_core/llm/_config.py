"""``auxiliary.<purpose>``: the configuration of an auxiliary LLM, e.g. for compression."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from hermes_core.config._schema import rule_for

__all__ = ["AuxiliaryLLMConfig"]


@dataclass(frozen=True)
class AuxiliaryLLMConfig:
    """Where an OpenAI-compatible chat-completions endpoint is and how to call it.

    ``api_key_env`` names the environment variable that holds the key;
    ``api_key_value`` is a key written in ``config.yaml`` itself (Hermes
    Agent's ``auxiliary.compression.api_key``), used when that variable is
    not set. Neither is ever part of ``repr()``. Hermes Agent's own keys are
    read too: ``timeout`` (when ``timeout_seconds`` is absent), ``extra_body``
    and ``reasoning_effort`` (added to every request body).
    """

    base_url: str
    model: str
    api_key_env: str | None = None
    timeout_seconds: float = rule_for("auxiliary.compression.timeout_seconds").default
    max_retries: int = rule_for("auxiliary.compression.max_retries").default
    api_key_value: str | None = field(default=None, repr=False)
    #: Fields merged into every request body (``extra_body``, ``reasoning_effort``).
    extra_body: Mapping[str, Any] = field(default_factory=dict)

    @classmethod
    def from_config(cls, data: Mapping[str, Any], purpose: str) -> AuxiliaryLLMConfig | None:
        """The ``auxiliary.<purpose>`` section, or None when it names no ``base_url`` and ``model``.

        Values are already checked by :func:`~hermes_core.load_config`.
        """
        auxiliary = data.get("auxiliary")
        section = auxiliary.get(purpose) if isinstance(auxiliary, Mapping) else None
        if not isinstance(section, Mapping) or not section.get("base_url"):
            return None
        if not section.get("model"):
            return None
        timeout = section.get("timeout_seconds", section.get("timeout") or cls.timeout_seconds)
        extra = dict(section.get("extra_body") or {})
        if section.get("reasoning_effort"):
            extra["reasoning_effort"] = section["reasoning_effort"]
        return cls(
            base_url=str(section["base_url"]).rstrip("/"),
            model=str(section["model"]),
            api_key_env=section.get("api_key_env"),
            timeout_seconds=float(timeout),
            max_retries=int(section.get("max_retries", cls.max_retries)),
            api_key_value=section.get("api_key") or None,
            extra_body=extra,
        )

    def api_key(self, env: Mapping[str, str] | None = None) -> str | None:
        """The key from ``api_key_env``, else ``api_key_value``; None when neither is set."""
        if self.api_key_env:
            value = (os.environ if env is None else env).get(self.api_key_env)
            if value:
                return value
        return self.api_key_value

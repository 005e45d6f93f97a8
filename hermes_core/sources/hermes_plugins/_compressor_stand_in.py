"""Hermes Agent's ``agent.context_compressor.ContextCompressor`` where Hermes Agent is not
installed, backed by hermes-context's own compressor.

Plugins such as hermes-context-tuner build on Hermes' compressor: they make one
(``ContextCompressor(model=..., threshold_percent=..., ...)``), subclass it, or
wrap it and call its methods and counters. :class:`ContextCompressor` takes
Hermes' constructor arguments, maps them onto the ``compression:`` settings
of the engine registered as ``compressor`` (loaded through its entry point,
as any engine is: hermes-context's core imports no engine), and forwards the
calls and counters such plugins use. Its threshold is the one Hermes'
compressor computes (:func:`hermes_threshold`: at least 75% of a window under
512,000 tokens, at least 64,000 tokens, 85% of a window that floor fills).
Its summaries are written by the auxiliary LLM of the host the plugin runs
on, deterministically without one.

What it covers is :data:`COVERED`. A plugin that reaches past it (Hermes'
session-database binding, its summary prompts, its private helpers) gets an
AttributeError naming the attribute and the way out (install hermes-agent),
never a stand-in that silently does less.
"""

from __future__ import annotations

import importlib.metadata
import sys
from typing import Any

from hermes_core.hooks._types import Messages
from hermes_core.sources.hermes_plugins._attributes import ENGINE_ATTRIBUTES, forwarding
from hermes_core.sources.hermes_plugins._hermes_abc import HermesContextEngine
from hermes_core.sources.hermes_plugins._tail_rules import tail_rule

__all__ = ["COVERED", "ContextCompressor", "hermes_threshold", "summary_prefix"]

#: Hermes' compressor triggers at no less than 75% of a window under 512,000 tokens, never
#: below 64,000 tokens, and at 85% of a window that floor would fill (its
#: ``_effective_threshold_percent`` and ``_compute_threshold_tokens``).
_SMALL_WINDOW, _SMALL_WINDOW_SHARE = 512_000, 0.75
_MINIMUM_THRESHOLD, _FULL_WINDOW_SHARE = 64_000, 0.85


def hermes_threshold(
    context_length: int, percent: float, max_tokens: int | None
) -> tuple[float, int]:
    """The share and the threshold in tokens Hermes' compressor computes for a window."""
    if context_length and context_length < _SMALL_WINDOW:
        percent = max(percent, _SMALL_WINDOW_SHARE)
    window = context_length - (max_tokens or 0)
    if window <= 0:
        window = context_length
    tokens = max(int(window * percent), _MINIMUM_THRESHOLD)
    if window > 0 and tokens >= window:
        tokens = max(1, min(int(window * _FULL_WINDOW_SHARE), window - 1))
    return percent, tokens


#: The methods forwarded to the engine behind it, as Hermes' compressor has them.
_METHODS = (
    "should_compress_info",
    "should_compress_preflight",
    "should_defer_preflight_to_real_usage",
    "has_content_to_compress",
    "get_status",
    "on_session_start",
    "on_session_end",
    "prune_tool_results_only",
)
#: Everything of Hermes' compressor this stand-in offers, besides Python's own names.
COVERED = frozenset(
    {
        *ENGINE_ATTRIBUTES,
        *_METHODS,
        "name",
        "update_from_response",
        "should_compress",
        "compress",
        "update_model",
        "on_session_reset",
        "model",
        "base_url",
        "api_key",
        "provider",
        "api_mode",
        "quiet_mode",
        "summary_model",
        "summary_target_ratio",
        "tail_token_budget",
        "abort_on_summary_failure",
        "max_tokens",
        "emit_automatic_compaction_status",
    }
)


def _compressor_class() -> Any:
    """The class registered as engine ``compressor`` by hermes-context's entry point."""
    for entry_point in importlib.metadata.entry_points(group="hermes.context_engines"):
        if entry_point.name == "compressor":
            return entry_point.load()
    raise RuntimeError(
        "hermes-context's compressor is not installed (entry point 'compressor' in group "
        "hermes.context_engines): reinstall hermes-context"
    )


def summary_prefix() -> str:
    """How the summaries of the compressor behind the stand-in begin (its module's
    ``SUMMARY_PREFIX``): what a plugin compares with Hermes' ``SUMMARY_PREFIX``."""
    module = sys.modules[_compressor_class().__module__]
    return str(getattr(module, "SUMMARY_PREFIX", ""))


def _method(name: str) -> Any:
    def call(self: ContextCompressor, *args: Any, **kwargs: Any) -> Any:
        return getattr(self._engine, name)(*args, **kwargs)

    call.__name__ = call.__qualname__ = name
    return call


class ContextCompressor(HermesContextEngine):
    """Hermes Agent's built-in compressor, as a plugin built on it sees it (see the module
    docstring)."""

    def __init__(
        self,
        model: str = "",
        threshold_percent: float = 0.50,
        protect_first_n: int = 3,
        protect_last_n: int = 20,
        summary_target_ratio: float = 0.20,
        quiet_mode: bool = False,
        summary_model_override: str | None = None,
        base_url: str = "",
        api_key: str = "",
        config_context_length: int | None = None,
        provider: str = "",
        api_mode: str = "",
        abort_on_summary_failure: bool = False,
        max_tokens: int | None = None,
    ) -> None:
        self.summary_target_ratio = max(0.10, min(float(summary_target_ratio), 0.80))
        section = {
            "threshold": threshold_percent,
            "protect_first_n": protect_first_n,
            "protect_last_n": protect_last_n,
            "target_ratio": self.summary_target_ratio,
            "abort_on_summary_failure": abort_on_summary_failure,
        }
        self._engine = _compressor_class()({"compression": section})
        self.model = model
        self.base_url = base_url
        self.api_key = api_key
        self.provider = provider
        self.api_mode = api_mode
        self.quiet_mode = quiet_mode
        self.summary_model = summary_model_override or ""
        self.abort_on_summary_failure = abort_on_summary_failure
        self.max_tokens = max_tokens
        from hermes_core.sources.hermes_plugins._shims import release_followed

        #: The Hermes release whose rules this compressor follows (see :mod:`._tail_rules`).
        self.hermes_release = release_followed()
        if config_context_length:
            self.update_model(model, int(config_context_length), base_url, api_key, provider)

    @property
    def name(self) -> str:
        return "compressor"

    @property
    def tail_token_budget(self) -> int:
        """Tokens the kept tail may hold: the threshold times the summary target ratio."""
        return int(self._engine.threshold_tokens * self.summary_target_ratio)

    def update_from_response(self, usage: dict[str, Any]) -> None:
        self._engine.update_from_response(usage)

    def should_compress(self, prompt_tokens: int | None = None) -> bool:
        return bool(self._engine.should_compress(prompt_tokens))

    def update_model(
        self,
        model: str,
        context_length: int,
        base_url: str = "",
        api_key: str = "",
        provider: str = "",
        api_mode: str = "",
    ) -> None:
        self.model = model
        engine = self._engine
        engine.update_model(model, context_length, base_url, api_key, provider, api_mode)
        # Hermes' own thresholds, which plugins built on its compressor are tuned to
        engine.threshold_percent, engine.threshold_tokens = hermes_threshold(
            context_length, engine.threshold_percent, self.max_tokens
        )
        engine.tail_start = tail_rule(
            self.hermes_release,
            context_length,
            engine.threshold_tokens,
            self.summary_target_ratio,
            engine.protect_last_n,
        )

    def compress(
        self,
        messages: Messages,
        current_tokens: int | None = None,
        focus_topic: str | None = None,
        force: bool = False,
        memory_context: str = "",
    ) -> Messages:
        from hermes_core.sources.hermes_plugins._shims import current_llm

        # the LLM of the host this call runs for (None: a deterministic summary)
        self._engine.llm = current_llm()
        result: Messages = self._engine.compress(messages, current_tokens, focus_topic, force)
        return result

    def on_session_reset(self) -> None:
        self._engine.on_session_reset()

    def __getattr__(self, name: str) -> Any:
        # only reached for what neither this class nor the instance has
        if name.startswith("__") or name == "_engine":
            raise AttributeError(name)
        raise AttributeError(
            f"{type(self).__name__} has no attribute {name!r}: Hermes Agent is not installed, "
            "and hermes-context's stand-in for its ContextCompressor covers "
            f"{', '.join(sorted(COVERED))}. pip install hermes-agent to run this plugin on "
            "Hermes' own compressor"
        )


for _attribute in ENGINE_ATTRIBUTES:  # the counters Hermes' compressor keeps, on ours
    setattr(ContextCompressor, _attribute, forwarding(_attribute, lambda self: self._engine))
for _name in _METHODS:
    setattr(ContextCompressor, _name, _method(_name))

"""When a prune of old tool results is worth making, as Hermes Agent 0.22 decides it.

An engine's ``prune_tool_results_only`` rewrites history the provider has
already cached, so it runs only past ``compression.proactive_prune_tokens``
(0: never), keeps only what frees at least
``compression.proactive_prune_min_reclaim_tokens``, and then waits for the
conversation to grow back by a full step before the next one. Our engines
use :class:`PruneGate` for it; a third party's may too.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from hermes_core.config._model import HermesConfig
from hermes_core.config._schema import rule_for

__all__ = ["PruneGate"]

_KEYS = (
    "compression.proactive_prune_tokens",
    "compression.proactive_prune_min_result_chars",
    "compression.proactive_prune_min_reclaim_tokens",
)


def _value(config: HermesConfig | Mapping[str, Any] | None, path: str) -> Any:
    """The value of ``path`` in ``config``, checked by its rule, else the rule's default."""
    if isinstance(config, HermesConfig):
        return config.value(path)
    rule = rule_for(path)
    section, key = path.split(".")
    values = config.get(section) if isinstance(config, Mapping) else None
    value = values.get(key) if isinstance(values, Mapping) else None
    return value if value is not None and rule.check(value) else rule.fresh_default()


@dataclass
class PruneGate:
    """The three keys of ``compression:`` that govern pruning, and the size the
    conversation must reach again before the next prune (per session)."""

    #: Prompt tokens from which a prune may run; 0 turns pruning off.
    trigger_tokens: int = 0
    #: Tool results shorter than this are left alone.
    min_result_chars: int = 8_000
    #: A prune freeing fewer tokens than this is not made.
    min_reclaim_tokens: int = 4_096

    def __post_init__(self) -> None:
        self._rearm: dict[str, int] = {}

    @classmethod
    def from_config(cls, config: HermesConfig | Mapping[str, Any] | None) -> PruneGate:
        """The gate ``config`` sets: a loaded configuration, or a mapping of sections as an
        engine is given it (a value that does not fit, or none, is the default: off)."""
        return cls(*(int(_value(config, key)) for key in _KEYS))

    def reached(self, current_tokens: int | None) -> bool:
        """Whether pruning is on and the prompt (``current_tokens``, the last real one;
        None when unknown) has reached the trigger. Cheap: ask it before measuring the
        conversation, which is the engine's work."""
        if self.trigger_tokens <= 0:
            return False
        return current_tokens is None or current_tokens >= self.trigger_tokens

    def grown_back(self, size_tokens: int, session: str = "") -> bool:
        """Whether the conversation (``size_tokens``, the engine's estimate) has grown back
        by a full step since the session's last prune."""
        return size_tokens >= self._rearm.get(session, 0)

    def commit(self, before_tokens: int, after_tokens: int, session: str = "") -> bool:
        """Whether a prune from ``before_tokens`` to ``after_tokens`` frees enough to be
        made; when it does, the next one waits for a full step of growth."""
        freed = before_tokens - after_tokens
        if freed <= 0 or freed < self.min_reclaim_tokens:
            return False
        step = max(freed, self.trigger_tokens, self.min_reclaim_tokens)
        self._rearm[session] = after_tokens + step
        return True

    def reset(self, session: str | None = None) -> None:
        """Forget when ``session`` (every session with None) may prune next."""
        if session is None:
            self._rearm.clear()
        else:
            self._rearm.pop(session, None)

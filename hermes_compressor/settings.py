"""The ``compression:`` section, as the compressor reads and checks it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from hermes_core import HermesConfig, KeyRule, is_bool, is_fraction, read_section, whole_number

__all__ = ["RULES", "CompressorSettings"]

TARGET_RATIO_RANGE = (0.10, 0.80)

#: The compressor's keys of ``compression:``; the defaults are the reference host's.
RULES: tuple[KeyRule, ...] = (
    KeyRule(
        "compression.threshold",
        is_fraction,
        "a number greater than 0 and at most 1",
        0.50,
        "Fraction of the context length at which the compressor compacts "
        "(compression.model_thresholds can override it per model).",
    ),
    KeyRule(
        "compression.threshold_tokens",
        lambda v: v is None or whole_number(1)(v),
        "a whole number of tokens, 1 or more (or null)",
        None,
        "A fixed threshold in tokens instead of the fraction; null uses the fraction.",
    ),
    KeyRule(
        "compression.target_ratio",
        is_fraction,
        "a number greater than 0 and at most 1 (clamped to 0.10-0.80)",
        0.20,
        "Share of the threshold the kept tail may take, and of the compacted middle the "
        "summary aims at.",
    ),
    KeyRule(
        "compression.protect_first_n",
        whole_number(0),
        "a whole number, 0 or more",
        3,
        "Messages at the head kept as they are (the system prompt and the first exchange).",
    ),
    KeyRule(
        "compression.protect_last_n",
        whole_number(1),
        "a whole number, 1 or more",
        20,
        "Messages at the tail kept as they are.",
    ),
    KeyRule(
        "compression.min_tail_user_messages",
        whole_number(0),
        "a whole number, 0 or more",
        1,
        "User messages the kept tail holds at least, however long they are.",
    ),
    KeyRule(
        "compression.abort_on_summary_failure",
        is_bool,
        "true or false",
        False,
        "When the summary LLM fails: true keeps the messages as they were, false drops the "
        "middle with a short fallback note.",
    ),
    KeyRule(
        "compression.max_attempts",
        whole_number(1),
        "a whole number, 1 or more",
        3,
        "Passes per turn at most; should_compress then answers false (reason max_attempts).",
    ),
)


@dataclass(frozen=True)
class CompressorSettings:
    """Checked compressor settings; build them with :meth:`from_config` (defaults: RULES)."""

    threshold: float
    threshold_tokens: int | None
    target_ratio: float
    protect_first_n: int
    protect_last_n: int
    min_tail_user_messages: int
    abort_on_summary_failure: bool
    max_attempts: int

    @classmethod
    def from_config(
        cls, config: Mapping[str, Any] | None, hermes_config: HermesConfig | None = None
    ) -> CompressorSettings:
        """Read ``config["compression"]``.

        A value that does not fit is reported with its key
        (``compression.protect_last_n``), the file and line (from
        ``hermes_config``) and what is expected; in strict mode a
        :class:`~hermes_core.ConfigError` listing every problem is raised,
        otherwise each is logged as ``hermes_config.invalid`` and its default
        is used, so the default engine always starts. ``target_ratio`` is
        clamped to 0.10-0.80.
        """
        values = read_section("compression", RULES, config, hermes_config)
        low, high = TARGET_RATIO_RANGE
        values["target_ratio"] = min(high, max(low, float(values["target_ratio"])))
        return cls(**values)

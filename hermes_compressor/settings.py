"""The ``compression:`` section, as the compressor reads and checks it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from hermes_core.config import HermesConfig, Rule, read_section
from hermes_core.config.checks import is_bool, is_fraction, whole_number

__all__ = ["CompressorSettings"]

TARGET_RATIO_RANGE = (0.10, 0.80)


_RULES: dict[str, Rule] = {
    "threshold": (is_fraction, "a number greater than 0 and at most 1"),
    "threshold_tokens": (
        lambda v: v is None or whole_number(1)(v),
        "a whole number of tokens, 1 or more (or null)",
    ),
    "target_ratio": (is_fraction, "a number greater than 0 and at most 1 (clamped to 0.10-0.80)"),
    "protect_first_n": (whole_number(0), "a whole number, 0 or more"),
    "protect_last_n": (whole_number(1), "a whole number, 1 or more"),
    "min_tail_user_messages": (whole_number(0), "a whole number, 0 or more"),
    "abort_on_summary_failure": (is_bool, "true or false"),
    "max_attempts": (whole_number(1), "a whole number, 1 or more"),
}


@dataclass(frozen=True)
class CompressorSettings:
    """Checked compressor settings; the defaults are the reference host's."""

    threshold: float = 0.50
    threshold_tokens: int | None = None
    target_ratio: float = 0.20
    protect_first_n: int = 3
    protect_last_n: int = 20
    min_tail_user_messages: int = 1
    abort_on_summary_failure: bool = False
    max_attempts: int = 3

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
        values = read_section("compression", _RULES, config, hermes_config)
        if "target_ratio" in values:
            low, high = TARGET_RATIO_RANGE
            values["target_ratio"] = min(high, max(low, float(values["target_ratio"])))
        return cls(**values)

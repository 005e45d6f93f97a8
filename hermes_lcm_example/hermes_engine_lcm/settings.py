"""The ``lcm:`` section of config.yaml."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hermes_core import HermesConfig
from hermes_core.config import Rule, read_section
from hermes_core.config.checks import is_bool, is_fraction, seconds, whole_number

__all__ = ["LCMSettings"]


_RULES: dict[str, Rule] = {
    "database": (lambda v: isinstance(v, str) and bool(v), "a file path"),
    "threshold": (is_fraction, "a number greater than 0 and at most 1"),
    "fresh_tail_messages": (whole_number(1), "a whole number, 1 or more"),
    "leaf_chunk_tokens": (whole_number(1), "a whole number of tokens, 1 or more"),
    "condensation_fanin": (whole_number(2), "a whole number, 2 or more"),
    "cross_session_search": (is_bool, "true or false"),
    "max_passes": (whole_number(1), "a whole number, 1 or more"),
    "deadline_seconds": (seconds(0, 86_400, above=True), "a number of seconds, 0 to 86400"),
    "summary_target_tokens": (whole_number(1), "a whole number of tokens, 1 or more"),
    "relevant_messages": (whole_number(0), "a whole number, 0 or more"),
}


@dataclass(frozen=True)
class LCMSettings:
    """Checked LCM settings. ``database`` defaults to ``$HERMES_HOME/lcm/lcm.db``."""

    database: str | None = None
    threshold: float = 0.75
    fresh_tail_messages: int = 32
    leaf_chunk_tokens: int = 20_000
    condensation_fanin: int = 4
    cross_session_search: bool = False
    max_passes: int = 16
    deadline_seconds: float = 60.0
    summary_target_tokens: int = 1_200
    relevant_messages: int = 6

    @classmethod
    def from_config(
        cls, config: Mapping[str, Any] | None, hermes_config: HermesConfig | None = None
    ) -> LCMSettings:
        """Read ``config["lcm"]``.

        A bad value is reported with its key, file, line, what was expected
        and what was found, and its default applies (one bad key never costs
        the lossless engine); in strict mode a :class:`~hermes_core.ConfigError`
        naming every bad key is raised.
        """
        return cls(**read_section("lcm", _RULES, config, hermes_config))

    def database_path(self, hermes_home: Path) -> Path:
        """Where the database lives."""
        if self.database:
            return Path(self.database).expanduser()
        return hermes_home / "lcm" / "lcm.db"

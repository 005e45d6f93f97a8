"""The ``lcm:`` section of config.yaml."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hermes_core import (
    HermesConfig,
    KeyRule,
    is_bool,
    is_fraction,
    read_section,
    seconds,
    whole_number,
)

__all__ = ["RULES", "LCMSettings"]

_URL_SCHEMES = ("postgresql://", "postgres://")

#: The keys of ``lcm:``.
RULES: tuple[KeyRule, ...] = (
    KeyRule(
        "lcm.database",
        lambda v: v is None or (isinstance(v, str) and bool(v)),
        "a file path",
        None,
        "The SQLite file of the store; default $HERMES_HOME/lcm/lcm.db.",
        state=True,
    ),
    KeyRule(
        "lcm.database_url",
        lambda v: v is None or (isinstance(v, str) and v.startswith(_URL_SCHEMES)),
        "a postgresql:// URL",
        None,
        "A PostgreSQL server for the store, shared by every worker that names it "
        "(postgresql://user@host:5432/dbname); instead of the SQLite file. Better kept out of "
        "this file when it holds a password: see database_url_env.",
        state=True,
    ),
    KeyRule(
        "lcm.database_url_env",
        lambda v: isinstance(v, str) and v.isidentifier(),
        "the name of an environment variable",
        "HERMES_LCM_DATABASE_URL",
        "The environment variable whose postgresql:// URL is used when database_url is not set "
        "(so that no password sits in config.yaml).",
        state=True,
    ),
    KeyRule(
        "lcm.pool_size",
        whole_number(1),
        "a whole number, 1 or more",
        4,
        "Connections each engine keeps to the PostgreSQL server at most.",
    ),
    KeyRule(
        "lcm.lock_timeout_seconds",
        seconds(0, 3_600, above=True),
        "a number of seconds greater than 0, at most 3600",
        10.0,
        "Longest wait of a PostgreSQL writer for its session's lock (another worker holds it): "
        "then the call fails and nothing is written; keep it under the host's "
        "compression.hook_timeout_seconds.",
    ),
    KeyRule(
        "lcm.threshold",
        is_fraction,
        "a number greater than 0 and at most 1",
        0.75,
        "Fraction of the context length at which a pass compacts.",
    ),
    KeyRule(
        "lcm.fresh_tail_messages",
        whole_number(1),
        "a whole number, 1 or more",
        32,
        "Most recent messages always sent as they are.",
    ),
    KeyRule(
        "lcm.leaf_chunk_tokens",
        whole_number(1),
        "a whole number of tokens, 1 or more",
        20_000,
        "Tokens of raw messages one leaf summary covers at most.",
    ),
    KeyRule(
        "lcm.condensation_fanin",
        whole_number(2),
        "a whole number, 2 or more",
        4,
        "Summaries of one depth condensed into one of the next.",
    ),
    KeyRule(
        "lcm.cross_session_search",
        is_bool,
        "true or false",
        False,
        "Whether the retrieval tools search every session's messages, not only the current.",
    ),
    KeyRule(
        "lcm.max_passes",
        whole_number(1),
        "a whole number, 1 or more",
        16,
        "Summarising rounds one compress call makes at most.",
    ),
    KeyRule(
        "lcm.deadline_seconds",
        seconds(0, 86_400, above=True),
        "a number of seconds greater than 0, at most 86400",
        60.0,
        "Time one compress call may take when the host gives no deadline.",
    ),
    KeyRule(
        "lcm.summary_target_tokens",
        whole_number(1),
        "a whole number of tokens, 1 or more",
        1_200,
        "Length the summariser is asked to keep a summary under.",
    ),
    KeyRule(
        "lcm.fresh_tail_share",
        lambda v: is_fraction(v) and v <= 0.5,  # type: ignore[operator]
        "a number greater than 0 and at most 0.5",
        0.25,
        "Share of the threshold the fresh tail may take in tokens when a pass compacts; the "
        "tail is at most fresh_tail_messages messages and at least the latest turn.",
    ),
    KeyRule(
        "lcm.request_tail_share",
        lambda v: is_fraction(v) and v <= 0.5,  # type: ignore[operator]
        "a number greater than 0 and at most 0.5",
        0.1,
        "Share of a request's budget the fresh tail may take in select_context: the incoming "
        "turn whatever it costs, then earlier whole turns within this share (and "
        "fresh_tail_messages). Less than a pass keeps: the store loses nothing, and the "
        "recent turns that matter to the incoming message are ranked in with the rest.",
    ),
    KeyRule(
        "lcm.grow_requests",
        is_bool,
        "true or false",
        True,
        "Whether a request is the last one with the new messages appended while it fits and "
        "no pass ran (the provider's prompt cache then serves its prefix), a request built "
        "anew leaving a quarter of the budget to grow into; false builds each request from "
        "the store for its own ask.",
    ),
    KeyRule(
        "lcm.summary_share",
        lambda v: is_fraction(v) and v <= 0.5,  # type: ignore[operator]
        "a number greater than 0 and at most 0.5",
        0.2,
        "Share of a request's budget the summaries may take in select_context; the rest "
        "goes to the stored originals most relevant to the incoming message, then the most "
        "recent ones.",
    ),
    KeyRule(
        "lcm.embedding_model",
        lambda v: v is None or v is False or (isinstance(v, str) and bool(v.strip())),
        "auto, none, a model name (all-MiniLM-L6-v2) or the path of a sentence-transformers model",
        "auto",
        "Relevance by meaning as well as by words: the stored messages are embedded with this "
        "model in the background and ranked by cosine similarity, fused with the keyword "
        "ranking (reciprocal-rank fusion), for requests and lcm_grep. auto: the model that is "
        "installed (hermes-engine-lcm[embeddings] and a model package, or a model folder in "
        "$HERMES_HOME/lcm/models), else keywords only; none: keywords only.",
    ),
)


@dataclass(frozen=True)
class LCMSettings:
    """Checked LCM settings; build them with :meth:`from_config` (defaults: RULES)."""

    database: str | None
    database_url: str | None
    database_url_env: str
    pool_size: int
    lock_timeout_seconds: float
    threshold: float
    fresh_tail_messages: int
    leaf_chunk_tokens: int
    condensation_fanin: int
    cross_session_search: bool
    max_passes: int
    deadline_seconds: float
    summary_target_tokens: int
    fresh_tail_share: float
    request_tail_share: float
    summary_share: float
    grow_requests: bool
    embedding_model: str | bool | None

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
        return cls(**read_section("lcm", RULES, config, hermes_config))

    def server_url(self, environ: Mapping[str, str]) -> str | None:
        """The PostgreSQL URL of the store: ``database_url``, else the variable named by
        ``database_url_env`` when it holds one; None for the SQLite file."""
        if self.database_url:
            return self.database_url
        value = environ.get(self.database_url_env, "").strip()
        return value or None

    def database_path(self, hermes_home: Path) -> Path:
        """Where the database lives."""
        if self.database:
            return Path(self.database).expanduser()
        return hermes_home / "lcm" / "lcm.db"


#: The environment variable that sets ``lcm.embedding_model`` where the config does not.
EMBEDDING_MODEL_ENV = "HERMES_LCM_EMBEDDING_MODEL"


def embedding_setting(
    settings: LCMSettings,
    config: Mapping[str, Any] | None,
    hermes_config: HermesConfig | None,
    environ: Mapping[str, str],
) -> Any:
    """``lcm.embedding_model`` where the configuration sets it; else
    ``$HERMES_LCM_EMBEDDING_MODEL`` (a process's default: ``none`` in a test suite or a
    batch job), else the rule's default, ``auto``. The variable is read from the host's
    environment, else the process's: a check's isolated environment holds only
    HERMES_HOME, and this is a default of the process, not anyone's state."""
    data = config if config is not None else (hermes_config.data if hermes_config else {})
    section = data.get("lcm") if isinstance(data, Mapping) else None
    if isinstance(section, Mapping) and "embedding_model" in section:
        return settings.embedding_model
    default = environ.get(EMBEDDING_MODEL_ENV) or os.environ.get(EMBEDDING_MODEL_ENV, "")
    return default.strip() or settings.embedding_model

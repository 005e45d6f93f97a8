"""The configuration keys hermes-context itself reads, and how each is checked.

Sections that belong to an engine (``lcm:``, most of ``compression:``) are
left to that engine; only the keys below are checked here. A key whose value
does not fit is reported and dropped, so its default applies.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from hermes_core._names import ENGINE_NAME_RULE, is_valid_engine_name
from hermes_core._redaction import describe_secret, is_secret_key, quote_body
from hermes_core.config._checks import is_bool, is_fraction, seconds, share, whole_number
from hermes_core.config._rules import KeyRule
from hermes_core.hooks._record import BOUNDED, INLINE
from hermes_core.hooks._specs import HOOKS

__all__ = [
    "HERMES_AGENT_KEYS",
    "HERMES_AGENT_SECTIONS",
    "KEYS",
    "SECTIONS",
    "describe",
    "rule_for",
]


def _hook_timeout_text() -> str:
    """What ``compression.hook_timeout_seconds`` bounds, written from the hooks' declarations."""
    bounded = [h for h in HOOKS.values() if h.call == BOUNDED]
    inline = [h.host_method for h in HOOKS.values() if h.call == INLINE]
    late = ", ".join(
        f"{h.fallback} from {h.host_method}" for h in bounded if h.fallback != "nothing"
    )
    return (
        "Upper bound on every engine call other than a compression pass that may do work or "
        f"I/O: {', '.join(h.host_method for h in bounded)}. Such a call runs on the host's "
        "pool; when it is late the agent gets what it would have had without the engine "
        f"({late}), context_engine.hook_timeout is logged and hook_timeouts counted. The "
        f"per-response accessors {', '.join(inline)} run inline, unbounded: they must only "
        "read counters. 0 runs every call inline."
    )


def _is_str_list(value: object) -> bool:
    return isinstance(value, list) and all(isinstance(item, str) and item for item in value)


def _is_threshold_map(value: object) -> bool:
    return isinstance(value, dict) and all(
        isinstance(key, str) and key and is_fraction(item) for key, item in value.items()
    )


#: Sections that must be mappings when present.
SECTIONS = ("context", "plugins", "compression", "auxiliary", "auxiliary.compression")

#: Top-level keys of Hermes Agent 0.19's own config.yaml (``DEFAULT_CONFIG`` in
#: ``hermes_cli/config.py``), which users keep in the same file: never taken
#: for a misspelling of one of ours.
HERMES_AGENT_SECTIONS = frozenset(
    [
        "_config_version",
        "agent",
        "approvals",
        "auxiliary",
        "bedrock",
        "browser",
        "checkpoints",
        "code_execution",
        "command_allowlist",
        "compression",
        "computer_use",
        "context",
        "context_file_max_chars",
        "credential_pool_strategies",
        "cron",
        "curator",
        "dashboard",
        "delegation",
        "desktop",
        "discord",
        "display",
        "fallback_providers",
        "file_read_max_chars",
        "gateway",
        "goals",
        "honcho",
        "hooks",
        "hooks_auto_accept",
        "human_delay",
        "kanban",
        "logging",
        "lsp",
        "matrix",
        "mattermost",
        "max_concurrent_sessions",
        "max_live_sessions",
        "mcp",
        "mcp_discovery_timeout",
        "memory",
        "moa",
        "model",
        "model_catalog",
        "network",
        "onboarding",
        "openrouter",
        "paste_collapse_char_threshold",
        "paste_collapse_threshold",
        "paste_collapse_threshold_fallback",
        "personalities",
        "platform_hints",
        "plugins",
        "prefill_messages_file",
        "privacy",
        "prompt_caching",
        "providers",
        "quick_commands",
        "secrets",
        "security",
        "sessions",
        "skills",
        "slack",
        "streaming",
        "stt",
        "telegram",
        "terminal",
        "timezone",
        "tool_loop_guardrails",
        "tool_output",
        "tools",
        "toolsets",
        "tts",
        "updates",
        "vertex",
        "voice",
        "web",
        "whatsapp",
        "x_search",
    ]
)

#: Keys Hermes Agent 0.19 itself reads in the sections it shares with us (its
#: ``DEFAULT_CONFIG``, what ``hermes_cli`` reads beyond it, and the deprecated
#: ``compression.summary_*`` keys its doctor still reports): never called unknown.
HERMES_AGENT_KEYS: Mapping[str, frozenset[str]] = {
    "context": frozenset(["engine"]),
    "plugins": frozenset(["enabled", "disabled", "entries"]),
    "compression": frozenset(
        [
            "abort_on_summary_failure",
            "codex_app_server_auto",
            "codex_gpt55_autoraise",
            "codex_gpt55_autoraise_notice",
            "enabled",
            "hygiene_hard_message_limit",
            "in_place",
            "protect_first_n",
            "protect_last_n",
            "summary_base_url",
            "summary_model",
            "summary_provider",
            "target_ratio",
            "threshold",
        ]
    ),
    "auxiliary.compression": frozenset(
        ["api_key", "base_url", "extra_body", "model", "provider", "reasoning_effort", "timeout"]
    ),
}

KEYS: tuple[KeyRule, ...] = (
    KeyRule(
        "context.engine",
        is_valid_engine_name,
        ENGINE_NAME_RULE,
        "compressor",
        "Name of the one active context engine. Overridden by $HERMES_CONTEXT_ENGINE.",
    ),
    KeyRule(
        "context.engine_source",
        lambda value: value is None or (isinstance(value, str) and bool(value.strip())),
        "a distribution name, a plugin name or an engine folder's path (or null)",
        None,
        "Which registration of context.engine runs when more than one source registers that "
        "name: the distribution (hermes-engine-lcm), the plugin named in plugins.enabled "
        "(hermes-lcm) or the engine folder. Unset, a plugin named in plugins.enabled wins over "
        "an installed distribution or folder; otherwise the first source by precedence.",
    ),
    KeyRule(
        "context.reply_reserve_tokens",
        lambda value: value is None or whole_number(0)(value),
        "a whole number of tokens, 0 or more (or null: the smaller of 8192 and a quarter of "
        "the window)",
        None,
        "Tokens of the model's window kept for its reply: engines get the window minus this "
        "as their context length, and requests are built within it. Default: the smaller of "
        "8192 and a quarter of the window.",
    ),
    KeyRule(
        "context.strict",
        is_bool,
        "true or false",
        False,
        "Raise instead of falling back to the compressor when the selected engine fails. "
        "Also set by HERMES_STRICT_PLUGINS=1.",
    ),
    KeyRule(
        "plugins.dirs",
        _is_str_list,
        "a list of directory paths",
        [],
        "Plugin directories searched for <dir>/context_engine/<name>/, before "
        "$HERMES_HOME/plugins. Relative paths are relative to the config file.",
    ),
    KeyRule(
        "plugins.enabled",
        _is_str_list,
        "a list of general plugin names (entry points in group hermes.plugins)",
        [],
        "General plugins to load; no general plugin is loaded unless named here.",
    ),
    KeyRule(
        "plugins.register_timeout_seconds",
        seconds(0, 3_600),
        "a number of seconds from 0 to 3600 (0: no limit)",
        5,
        "Longest a plugin's import and register() may take (general plugins and Hermes Agent "
        "plugins at discovery, engine folders when selected); past it the plugin is listed "
        "broken, or the host falls back, and the rest goes on.",
    ),
    KeyRule(
        "compression.model_thresholds",
        _is_threshold_map,
        "a mapping of model-name substrings (or 'provider:substring') to numbers in (0, 1]",
        {},
        "Per-model threshold overrides; the longest matching key wins.",
    ),
    KeyRule(
        "auxiliary.compression.base_url",
        lambda value: (
            value == "" or (isinstance(value, str) and value.startswith(("http://", "https://")))
        ),
        "an http:// or https:// URL of an OpenAI-compatible API (e.g. https://host/v1)",
        None,
        "Base URL of the auxiliary LLM that summarises; none configured by default. An empty "
        "string means unset (Hermes Agent writes it so).",
    ),
    KeyRule(
        "auxiliary.compression.model",
        lambda value: isinstance(value, str),
        "a model name",
        None,
        "Model the auxiliary LLM is asked for (an empty string means unset).",
    ),
    KeyRule(
        "auxiliary.compression.api_key_env",
        lambda value: isinstance(value, str) and value.replace("_", "").isalnum(),
        "the name of an environment variable (letters, digits, '_')",
        None,
        "Environment variable holding the API key (preferred: the key stays out of the file).",
    ),
    KeyRule(
        "auxiliary.compression.api_key",
        lambda value: isinstance(value, str),
        "the API key as a string (better: name an environment variable in "
        "auxiliary.compression.api_key_env)",
        None,
        "The API key itself, as Hermes Agent users keep it; used when api_key_env names no "
        "set variable; an empty string means unset. Never logged, shown or put in an error.",
    ),
    KeyRule(
        "auxiliary.compression.timeout_seconds",
        seconds(0, 3_600, above=True),
        "a number of seconds greater than 0, at most 3600",
        30,
        "Timeout of one request to the auxiliary LLM.",
    ),
    KeyRule(
        "auxiliary.compression.timeout",
        lambda value: value == "" or seconds(0, 3_600, above=True)(value),
        "a number of seconds greater than 0, at most 3600",
        None,
        "Hermes Agent's name for timeout_seconds; used when timeout_seconds is not set (an "
        "empty string means unset).",
    ),
    KeyRule(
        "auxiliary.compression.provider",
        lambda value: isinstance(value, str),
        "a provider name (e.g. openrouter, custom)",
        None,
        "Hermes Agent's provider of the auxiliary LLM. Hermes Agent resolves it; on "
        "hermes-context's own host base_url and model say where the LLM is, and this key is "
        "read for nothing else (an empty string means unset).",
    ),
    KeyRule(
        "auxiliary.compression.extra_body",
        lambda value: value == "" or isinstance(value, dict),
        "a mapping of extra request fields",
        None,
        "Fields added to every request body (Hermes Agent's key), e.g. provider routing.",
    ),
    KeyRule(
        "auxiliary.compression.reasoning_effort",
        lambda value: isinstance(value, str),
        "a reasoning effort such as low, medium or high",
        None,
        "Sent as reasoning_effort in every request (Hermes Agent's key; an empty string means "
        "unset).",
    ),
    KeyRule(
        "auxiliary.compression.max_retries",
        whole_number(0, 10),
        "a whole number from 0 to 10",
        2,
        "Retries of 429 and 5xx answers, with exponential backoff.",
    ),
    KeyRule(
        "compression.hook_timeout_seconds",
        seconds(0, 86_400),
        "a number of seconds from 0 to 86400 (0 calls engines inline, unbounded)",
        30,
        _hook_timeout_text(),
    ),
    KeyRule(
        "compression.proactive_prune_tokens",
        whole_number(0),
        "a whole number of tokens, 0 or more (0: never)",
        0,
        "Hermes Agent's key: from this prompt size on (below the compression threshold), "
        "engines that prune shrink old tool results without an LLM (0 turns it off).",
    ),
    KeyRule(
        "compression.proactive_prune_min_result_chars",
        whole_number(200),
        "a whole number of characters, 200 or more",
        8_000,
        "Hermes Agent's key: tool results shorter than this are never pruned.",
    ),
    KeyRule(
        "compression.proactive_prune_min_reclaim_tokens",
        whole_number(0),
        "a whole number of tokens, 0 or more",
        4_096,
        "Hermes Agent's key: a prune freeing less than this is not made (each one changes "
        "the prompt's cached prefix).",
    ),
    KeyRule(
        "compression.min_freed_share",
        share(0.0, 1.0),
        "a share from 0 to 1 (0: only a pass that frees nothing backs off)",
        0.1,
        "A pass that frees less than this share of the prompt backs the next passes off "
        "(2, then 4, 8, ... responses, below the model's window).",
    ),
    KeyRule(
        "compression.prepare_at_share",
        share(0.0, 1.0),
        "a share from 0 to 1 (0: never prepare ahead)",
        0.5,
        "Once a prompt reaches this share of the engine's threshold, the next pass's "
        "summaries are prepared in the background while the agent works, so the pass "
        "applies them without waiting for the summariser.",
    ),
    KeyRule(
        "compression.min_turns_between_passes",
        whole_number(0),
        "a whole number of responses, 0 or more (0: never too soon)",
        2,
        "A pass fewer than this many responses after the one before backs the next passes "
        "off, as one that frees too little does.",
    ),
    KeyRule(
        "compression.context_timeout_seconds",
        seconds(0, 86_400),
        "a number of seconds from 0 to 86400 (0 runs passes without a timeout)",
        120,
        "Upper bound on one compression pass.",
    ),
)


_BY_PATH = {rule.path: rule for rule in KEYS}


def rule_for(path: str) -> KeyRule:
    """The rule of one of hermes-context's own keys, by dotted path."""
    return _BY_PATH[path]


def describe(value: object, key: str = "") -> str:
    """A short description of a bad value for an error message; never the value of a key
    whose name says it is a secret (``api_key``, ``token``, ``password``, ...), nor a secret
    in the text (a URL's password, a key)."""
    if key and is_secret_key(key):
        return describe_secret(value)
    return f"{type(value).__name__} {quote_body(repr(value), 60)}"


def iter_present(data: Mapping[str, Any], path: str) -> Iterator[object]:
    """Yield the value at dotted ``path`` when every step of it is present."""
    node: object = data
    for part in path.split("."):
        if not isinstance(node, Mapping) or part not in node:
            return
        node = node[part]
    yield node

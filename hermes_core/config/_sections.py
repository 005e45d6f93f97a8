"""Reading an engine's own section (``lcm:``, ``compression:``) with the core's rules.

Engines declare their keys as :class:`~hermes_core.config.KeyRule` objects,
like the core's own, and read them with :func:`read_section`: one notion of
strict (the loaded configuration's), one way of reporting, and defaults taken
from the rules.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from hermes_core._errors import ConfigError, ConfigProblem, UnknownKey
from hermes_core._log import logger
from hermes_core._redaction import describe_secret, is_secret_key, quote_body
from hermes_core.config._rules import KeyRule
from hermes_core.config._unknown import known_keys, unknown_keys
from hermes_core.config._yaml_source import line_of

if TYPE_CHECKING:
    from hermes_core.config._model import HermesConfig

__all__ = ["check_section", "read_section", "report_problems"]

#: Where a problem is placed when no loaded configuration names the file.
_NO_FILE = "<mapping>"


def _problem(config: HermesConfig | None, key: str, expected: str, value: object) -> ConfigProblem:
    """A problem with ``key``, placed in the real file and line when ``config`` knows them."""
    got = describe_secret(value) if is_secret_key(key) else quote_body(repr(value), 120)
    if config is None:
        return ConfigProblem(_NO_FILE, key, expected, got)
    line = line_of(config.text, key) if config.text is not None else None
    return ConfigProblem(config.label, key, expected, got, line)


def check_section(
    section: Mapping[str, Any],
    rules: Sequence[KeyRule],
    *,
    config: HermesConfig | None = None,
) -> tuple[dict[str, Any], list[ConfigProblem]]:
    """Each rule's key mapped to its value in ``section`` when it passes, else its default;
    and a problem for each value that does not pass.

    Keys without a rule are ignored; problems name the key by its dotted
    path, say what was expected, and (with ``config``, the loaded
    configuration) the file and line it stands on.
    """
    values: dict[str, Any] = {}
    problems: list[ConfigProblem] = []
    for rule in rules:
        if rule.key in section and rule.check(section[rule.key]):
            values[rule.key] = section[rule.key]
            continue
        if rule.key in section:
            problems.append(_problem(config, rule.path, rule.expected, section[rule.key]))
        values[rule.key] = rule.fresh_default()
    return values, problems


def read_section(
    name: str,
    rules: Sequence[KeyRule],
    data: Mapping[str, Any] | None,
    config: HermesConfig | None = None,
) -> dict[str, Any]:
    """Every key of an engine's section ``name``: its checked value, or its rule's default.

    ``data`` is the configuration mapping the engine was given (default: the
    data of ``config``); ``config`` is the loaded configuration, which names
    the real file and lines and decides strictness (``context.strict`` or
    ``HERMES_STRICT_PLUGINS=1``, as :func:`~hermes_core.load_config` read
    them). Without it the problems are placed in ``<mapping>`` and only
    ``context.strict`` in ``data`` makes them strict. Not strict: each bad
    value is logged as ``hermes_config.invalid`` and its default applies, and
    each key that neither the rules, the core nor Hermes Agent reads in the
    section is logged as ``hermes_config.unknown_key`` with the closest valid
    key. Strict: one :class:`~hermes_core.ConfigError` listing them all.
    """
    data = data if data is not None else (config.data if config is not None else {})
    section = data.get(name)
    if section is None:
        section = {}
    problems: list[ConfigProblem] = []
    if not isinstance(section, Mapping):
        problems.append(_problem(config, name, "a mapping of keys", section))
        section = {}
    if config is not None and config.scratch:  # tried with the user's settings, not state
        state = {rule.key for rule in rules if rule.state}
        section = {key: value for key, value in section.items() if key not in state}
    values, more = check_section(section, rules, config=config)
    problems += more
    problems += unknown_keys(
        name,
        section,
        known_keys(name, (rule.key for rule in rules)),
        source=config.label if config is not None else _NO_FILE,
        text=config.text if config is not None else None,
    )
    if config is not None:
        strict = config.strict
    else:
        context = data.get("context")
        strict = isinstance(context, Mapping) and context.get("strict") is True
    report_problems(problems, strict=strict)
    return values


def report_problems(problems: Sequence[ConfigProblem], *, strict: bool) -> None:
    """Raise one :class:`~hermes_core.ConfigError` listing ``problems`` when ``strict``.

    Otherwise log each as ``hermes_config.invalid`` with ``file``, ``key``
    (absent for a problem with the whole file), ``line`` and ``column`` (where
    known), ``expected``, ``got`` and ``message``; an
    :class:`~hermes_core.UnknownKey` as ``hermes_config.unknown_key``
    with ``file``, ``key``, ``line``, ``suggestion`` and ``message``.
    """
    if not problems:
        return
    if strict:
        raise ConfigError(problems)
    for problem in problems:
        place = {"key": problem.key, "line": problem.line, "column": problem.column}
        if isinstance(problem, UnknownKey):
            logger.warning(
                "hermes_config.unknown_key",
                file=problem.source,
                **{name: value for name, value in place.items() if value},
                suggestion=problem.suggestion,
                message=str(problem),
            )
            continue
        logger.warning(
            "hermes_config.invalid",
            file=problem.source,
            **{name: value for name, value in place.items() if value},
            expected=problem.expected,
            got=problem.got,
            message=str(problem),
        )

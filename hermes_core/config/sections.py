"""Helpers for engines that read a section of their own (``lcm:``, ``compression:``)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from hermes_core.config.yaml_source import line_of
from hermes_core.errors import ConfigError, ConfigProblem
from hermes_core.log import logger
from hermes_core.redaction import describe_secret, is_secret_key

if TYPE_CHECKING:
    from hermes_core.config.model import HermesConfig

__all__ = ["Rule", "check_section", "read_section", "report_problems"]

#: A key's check and what it expects, in words: ``(check, "a whole number, 1 or more")``.
Rule = tuple[Callable[[object], bool], str]


def _problem(config: HermesConfig | None, key: str, expected: str, value: object) -> ConfigProblem:
    """A problem with ``key``, placed in the real file and line when ``config`` knows them."""
    got = describe_secret(value) if is_secret_key(key) else repr(value)
    if config is None:
        return ConfigProblem("config.yaml", key, expected, got)
    line = line_of(config.text, key) if config.text is not None else None
    return ConfigProblem(config.label, key, expected, got, line)


def check_section(
    section: Mapping[str, Any],
    rules: Mapping[str, Rule],
    prefix: str,
    *,
    config: HermesConfig | None = None,
) -> tuple[dict[str, Any], list[ConfigProblem]]:
    """The values of ``section`` that pass their rule, and a problem for each that does not.

    Keys without a rule are ignored; problems name the key as
    ``<prefix>.<key>``, say what was expected, and (with ``config``, the
    loaded configuration) the file and line it stands on.
    """
    values: dict[str, Any] = {}
    problems: list[ConfigProblem] = []
    for key, (check, expected) in rules.items():
        if key not in section:
            continue
        if check(section[key]):
            values[key] = section[key]
        else:
            problems.append(_problem(config, f"{prefix}.{key}", expected, section[key]))
    return values, problems


def read_section(
    name: str,
    rules: Mapping[str, Rule],
    data: Mapping[str, Any] | None,
    config: HermesConfig | None = None,
) -> dict[str, Any]:
    """The checked values of an engine's section ``name``, its problems reported.

    ``data`` is the configuration mapping the engine was given (default: the
    data of ``config``); ``config`` is the loaded configuration, which names
    the real file and lines and decides strictness (``context.strict`` or
    ``HERMES_STRICT_PLUGINS=1``; without it, ``context.strict`` in ``data``).
    Not strict: each bad value is logged as ``hermes_config.invalid`` and left
    out, so its default applies. Strict: one :class:`~hermes_core.ConfigError`.
    """
    data = data if data is not None else (config.data if config is not None else {})
    section = data.get(name)
    if section is None:
        section = {}
    problems: list[ConfigProblem] = []
    if not isinstance(section, Mapping):
        problems.append(_problem(config, name, "a mapping of keys", section))
        section = {}
    values, more = check_section(section, rules, name, config=config)
    problems += more
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
    known), ``expected``, ``got`` and ``message``.
    """
    if not problems:
        return
    if strict:
        raise ConfigError(problems)
    for problem in problems:
        place = {"key": problem.key, "line": problem.line, "column": problem.column}
        logger.warning(
            "hermes_config.invalid",
            file=problem.source,
            **{name: value for name, value in place.items() if value},
            expected=problem.expected,
            got=problem.got,
            message=str(problem),
        )

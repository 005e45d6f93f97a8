"""Helpers for engines that read a section of their own (``lcm:``, ``compression:``)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from hermes_core.errors import ConfigError, ConfigProblem
from hermes_core.log import logger

__all__ = ["Rule", "check_section", "report_problems"]

#: A key's check and what it expects, in words: ``(check, "a whole number, 1 or more")``.
Rule = tuple[Callable[[object], bool], str]


def check_section(
    section: Mapping[str, Any],
    rules: Mapping[str, Rule],
    prefix: str,
    source: str = "config.yaml",
) -> tuple[dict[str, Any], list[ConfigProblem]]:
    """The values of ``section`` that pass their rule, and a problem for each that does not.

    Keys without a rule are ignored; problems name the key as
    ``<prefix>.<key>`` and say what was expected.
    """
    values: dict[str, Any] = {}
    problems: list[ConfigProblem] = []
    for key, (check, expected) in rules.items():
        if key not in section:
            continue
        if check(section[key]):
            values[key] = section[key]
        else:
            problems.append(ConfigProblem(source, f"{prefix}.{key}", expected, repr(section[key])))
    return values, problems


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

"""The engines' own config sections, checked where the user looks (``engines``, ``doctor``).

An engine declares the sections it reads with their rules (``config_rules`` on
its class). Each installed engine's class is imported, never built, and each
of its sections in the user's config.yaml is checked: values that do not fit
and keys nothing reads, each with its file, line and the closest valid key.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from hermes_core._containment import reraise_user_interrupt
from hermes_core._errors import ConfigProblem
from hermes_core.config import HermesConfig
from hermes_core.config._rules import KeyRule
from hermes_core.config._sections import check_section
from hermes_core.config._unknown import known_keys, unknown_keys
from hermes_core.registry import EngineRegistry

__all__ = ["declared_sections", "section_problems"]


def declared_sections(registry: EngineRegistry) -> dict[str, list[Sequence[KeyRule]]]:
    """Each section the installed engines declare, with the rules of every engine that
    reads it. An engine whose class cannot be imported declares nothing here (``engines
    --check`` and ``doctor`` report why)."""
    sections: dict[str, list[Sequence[KeyRule]]] = {}
    for record in registry:
        if not record.status.usable or record.load is None:
            continue
        try:
            registered = record.load()
        except BaseException as exc:  # sys.exit() at import included: reported by --check
            reraise_user_interrupt(exc)
            continue
        owner = registered if isinstance(registered, type) else type(registered)
        declared = getattr(owner, "config_rules", None)
        if not isinstance(declared, Mapping):
            continue
        for section, rules in declared.items():
            if isinstance(section, str) and isinstance(rules, Sequence):
                sections.setdefault(section, []).append(rules)
    return sections


def section_problems(config: HermesConfig, registry: EngineRegistry) -> list[ConfigProblem]:
    """Every problem in the sections of ``config`` that installed engines declare, each
    once (two engines reading one section report a key once), in file order."""
    found: dict[str, ConfigProblem] = {}
    for section, rule_sets in declared_sections(registry).items():
        data: Any = config.data.get(section)
        if not isinstance(data, Mapping):
            continue
        rules = [rule for rule_set in rule_sets for rule in rule_set]
        _, invalid = check_section(data, rules, config=config)
        unknown = unknown_keys(
            section,
            data,
            known_keys(section, (rule.key for rule in rules)),
            source=config.label,
            text=config.text,
        )
        for problem in [*invalid, *unknown]:
            found.setdefault(problem.key or "", problem)
    return sorted(found.values(), key=lambda problem: (problem.line or 0, problem.key or ""))

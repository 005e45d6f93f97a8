"""Finding, reading and checking ``config.yaml``."""

from __future__ import annotations

import copy
import difflib
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from hermes_core._errors import ConfigProblem, UnknownKey
from hermes_core._log import logger
from hermes_core.config._home import hermes_home
from hermes_core.config._model import HermesConfig
from hermes_core.config._schema import (
    HERMES_AGENT_SECTIONS,
    KEYS,
    SECTIONS,
    describe,
    iter_present,
)
from hermes_core.config._sections import report_problems
from hermes_core.config._unknown import known_keys, unknown_keys
from hermes_core.config._yaml_source import MAX_YAML_BYTES, YamlSyntaxError, line_of, parse_yaml

__all__ = ["hermes_home", "load_config"]

_TRUE = {"1", "true", "yes", "on"}


def _locate(path: str | os.PathLike[str] | None, env: Mapping[str, str]) -> tuple[Path, bool]:
    """The config file to read, and whether it must exist (it was named explicitly)."""
    if path is not None:
        return Path(path).expanduser(), True
    if env.get("HERMES_CONFIG"):
        return Path(env["HERMES_CONFIG"]).expanduser(), True
    return hermes_home(env) / "config.yaml", False


def load_config(
    source: str | os.PathLike[str] | Mapping[str, Any] | None = None,
    *,
    env: Mapping[str, str] | None = None,
    strict: bool | None = None,
    overrides: Mapping[str, Any] | None = None,
) -> HermesConfig:
    """Load and check the configuration.

    ``source`` is a path, a mapping (already-parsed configuration), or None
    for ``$HERMES_CONFIG``, else ``$HERMES_HOME/config.yaml`` (a missing
    default file means all defaults). Every problem (unreadable file, YAML
    syntax, wrong type) names the file, the key path, the line where YAML
    gives one, and what is expected. Values that do not fit are dropped so
    their defaults apply, and each problem is logged as
    ``hermes_config.invalid``; with ``strict`` (default: ``context.strict`` or
    ``HERMES_STRICT_PLUGINS=1``) a :class:`~hermes_core.ConfigError` listing
    them all is raised instead. Nothing in the file is executed.

    ``overrides`` are sections merged over the file's, mapping into mapping
    (``{"context": {"engine": "lcm"}}``), and checked like them; the
    configuration keeps the file's path, so relative ``plugins.dirs`` still
    resolve against the file's folder.
    """
    env = os.environ if env is None else env
    text: str | None = None
    path: Path | None = None
    problems: list[ConfigProblem] = []
    data: Any
    if isinstance(source, Mapping):
        label = "<mapping>"
        data = copy.deepcopy(dict(source))
    else:
        path, must_exist = _locate(source, env)
        label = str(path)
        data = {}
        try:
            if path.stat().st_size > MAX_YAML_BYTES:  # not read at all: it is no config file
                raise OSError(
                    f"{path.stat().st_size:,} bytes, more than a configuration holds "
                    f"(at most {MAX_YAML_BYTES:,})"
                )
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            if must_exist:
                problems.append(ConfigProblem(label, "", "an existing YAML file", "no such file"))
        except (OSError, UnicodeDecodeError) as exc:
            problems.append(ConfigProblem(label, "", "a readable UTF-8 YAML file", str(exc)))
        if text is not None:
            try:
                data = parse_yaml(text)
            except YamlSyntaxError as exc:
                problems.append(
                    ConfigProblem(
                        label,
                        "",
                        "valid YAML (fix the file; until then every default applies)",
                        str(exc),
                        line=exc.line,
                        column=exc.column,
                    )
                )
                data = {}
    if data is None:
        data = {}
    if not isinstance(data, dict):
        problems.append(ConfigProblem(label, "", "a mapping of sections", describe(data), 1))
        data = {}
    if overrides:
        data = _merged(data, copy.deepcopy(dict(overrides)))

    problems.extend(_check(data, label, text))
    problems.extend(_unknown_in_sections(data, label, text))
    _warn_misspelled_sections(data, label, text)
    if strict is None:
        strict = env.get("HERMES_STRICT_PLUGINS", "").strip().lower() in _TRUE or (
            data.get("context", {}).get("strict") is True
        )
    report_problems(problems, strict=strict)
    return HermesConfig(
        data=data,
        path=path,
        home=hermes_home(env),
        env=dict(env),
        strict=strict,
        problems=tuple(problems),
        text=text,
        origin=label,
    )


def _merged(base: dict[str, Any], overrides: Mapping[str, Any]) -> dict[str, Any]:
    """``base`` with ``overrides`` merged over it, mapping into mapping."""
    merged = dict(base)
    for key, value in overrides.items():
        if isinstance(value, Mapping) and isinstance(merged.get(key), Mapping):
            merged[key] = _merged(dict(merged[key]), value)
        else:
            merged[key] = value
    return merged


#: Our own top-level sections, which a misspelled key is compared with.
_OWN_SECTIONS = tuple(dict.fromkeys(section.split(".")[0] for section in SECTIONS))


def _warn_misspelled_sections(data: dict[str, Any], label: str, text: str | None) -> None:
    """Warn about a top-level key that looks like a misspelling of one of our sections.

    Unknown keys are normal (engines and Hermes Agent keep sections of their
    own in the file), so only a near miss of ``context``, ``plugins``,
    ``compression`` or ``auxiliary`` that is not itself a known key is named.
    """
    for key in data:
        if not isinstance(key, str) or key in _OWN_SECTIONS or key in HERMES_AGENT_SECTIONS:
            continue
        close = difflib.get_close_matches(key, _OWN_SECTIONS, n=1, cutoff=0.8)
        if close:
            line = line_of(text, key, of_key=True) if text is not None else None
            where = f"{label}:{line}" if line is not None else label
            logger.warning(
                "hermes_config.unknown_key",
                file=label,
                key=key,
                line=line,
                suggestion=close[0],
                message=f"{where}: unknown top-level key '{key}' is ignored; "
                f"did you mean '{close[0]}'?",
            )


#: Sections whose every key the core knows at load time. ``compression`` is shared with
#: the compressor, whose rules the core does not import: it checks that section when it
#: reads it (``read_section``).
_WHOLLY_KNOWN = ("context", "plugins", "auxiliary.compression")


def _unknown_in_sections(data: dict[str, Any], label: str, text: str | None) -> list[UnknownKey]:
    """The keys of the core's own sections that nothing reads."""
    problems: list[UnknownKey] = []
    for section in _WHOLLY_KNOWN:
        mapping: Any = data
        for part in section.split("."):
            mapping = mapping.get(part) if isinstance(mapping, dict) else None
        if isinstance(mapping, dict):
            problems += unknown_keys(section, mapping, known_keys(section), source=label, text=text)
    return problems


def _check(data: dict[str, Any], label: str, text: str | None) -> list[ConfigProblem]:
    """Check the known keys in place: remove what does not fit and report it."""

    def problem(key: str, expected: str, value: object) -> ConfigProblem:
        line = line_of(text, key) if text is not None else None
        return ConfigProblem(label, key, expected, describe(value, key), line)

    problems = []
    for section in SECTIONS:
        *parents, key = section.split(".")
        node: Any = data
        for part in parents:
            node = node.get(part) if isinstance(node, dict) else None
        if not isinstance(node, dict) or key not in node:
            continue
        if node[key] is None:
            node[key] = {}
        elif not isinstance(node[key], dict):
            problems.append(problem(section, "a mapping of keys", node[key]))
            del node[key]
    for rule in KEYS:
        for value in iter_present(data, rule.path):
            if not rule.check(value):
                problems.append(problem(rule.path, rule.expected, value))
                *parents, key = rule.path.split(".")
                node = data
                for part in parents:
                    node = node[part]
                del node[key]
    return problems

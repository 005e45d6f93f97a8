"""Module paths that moved, served for one more release with a DeprecationWarning.

Below the packages, a module's name starts with an underscore (as pluggy's and httpx's
do): where a name is defined is no promise, the name is, in :mod:`hermes_core` (and
:mod:`hermes_core.testing`, :mod:`hermes_core.integrations`). Importing a path of
:data:`MOVED` still works until the next minor release: it warns, and gives the very
module its new path names (one object under both names, so a patch through either
reaches it).
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys
import warnings
from types import ModuleType

__all__ = ["MOVED", "install"]

#: Modules that became private in place: ``a.b.c`` is ``a.b._c`` now.
_RENAMED = (
    "hermes_core.cli.common",
    "hermes_core.cli.config_check",
    "hermes_core.cli.doctor",
    "hermes_core.cli.engines",
    "hermes_core.cli.main",
    "hermes_core.cli.output",
    "hermes_core.cli.packages",
    "hermes_core.cli.plugins",
    "hermes_core.cli.replay.chart",
    "hermes_core.cli.replay.hermes",
    "hermes_core.cli.replay.simulation",
    "hermes_core.cli.scaffold.licenses",
    "hermes_core.cli.scaffold.templates",
    "hermes_core.cli.select",
    "hermes_core.cli.sessions",
    "hermes_core.config.checks",
    "hermes_core.config.editing",
    "hermes_core.config.enabling",
    "hermes_core.config.home",
    "hermes_core.config.loader",
    "hermes_core.config.model",
    "hermes_core.config.rules",
    "hermes_core.config.schema",
    "hermes_core.config.sections",
    "hermes_core.config.unknown",
    "hermes_core.config.writing",
    "hermes_core.config.yaml_source",
    "hermes_core.containment",
    "hermes_core.discovery",
    "hermes_core.engine",
    "hermes_core.errors",
    "hermes_core.hermes_agent.adapter",
    "hermes_core.hermes_agent.forecast",
    "hermes_core.hermes_agent.llm",
    "hermes_core.hermes_agent.sessions.probes",
    "hermes_core.hermes_agent.sessions.scoring",
    "hermes_core.hermes_agent.sessions.store",
    "hermes_core.hermes_agent.sessions.summaries",
    "hermes_core.hermes_agent.sessions.transcript",
    "hermes_core.integrations.alignment",
    "hermes_core.integrations.due",
    "hermes_core.integrations.extras",
    "hermes_core.integrations.langchain.messages",
    "hermes_core.integrations.langchain.middleware",
    "hermes_core.integrations.langchain.tools",
    "hermes_core.integrations.langchain.window",
    "hermes_core.integrations.openai_agents.input_filter",
    "hermes_core.integrations.openai_agents.items",
    "hermes_core.integrations.openai_agents.replacing",
    "hermes_core.integrations.openai_agents.session",
    "hermes_core.integrations.openai_agents.tools",
    "hermes_core.integrations.window",
    "hermes_core.llm.client",
    "hermes_core.llm.config",
    "hermes_core.llm.cooldown",
    "hermes_core.llm.protocol",
    "hermes_core.log",
    "hermes_core.messages.copying",
    "hermes_core.messages.provenance",
    "hermes_core.messages.repair",
    "hermes_core.messages.text",
    "hermes_core.messages.validation",
    "hermes_core.names",
    "hermes_core.prune_gate",
    "hermes_core.redaction",
    "hermes_core.registry.activation",
    "hermes_core.registry.compat",
    "hermes_core.registry.factories",
    "hermes_core.registry.records",
    "hermes_core.registry.registry",
    "hermes_core.registry.validation",
    "hermes_core.sources.directories",
    "hermes_core.sources.docstrings",
    "hermes_core.sources.entry_points",
    "hermes_core.sources.general_plugins",
    "hermes_core.sources.manifests",
    "hermes_core.sources.packages",
    "hermes_core.sources.source",
    "hermes_core.standing.block",
    "hermes_core.standing.detect",
    "hermes_core.standing.facts",
    "hermes_core.standing.languages",
    "hermes_core.standing.learned",
    "hermes_core.standing.ledger",
    "hermes_core.standing.placing",
    "hermes_core.standing.sessions",
    "hermes_core.standing.topics",
    "hermes_core.testing.contract",
    "hermes_core.testing.conversations",
    "hermes_core.testing.distributions",
    "hermes_core.testing.engine_source",
    "hermes_core.testing.events",
    "hermes_core.testing.hosts",
    "hermes_core.testing.offline",
    "hermes_core.testing.openai_server",
    "hermes_core.testing.rules",
    "hermes_core.testing.site",
    "hermes_core.thresholds",
    "hermes_core.tokens",
)
#: Modules whose names moved elsewhere.
_ELSEWHERE = {
    "hermes_core.hook_record": "hermes_core.hooks._record",
    "hermes_core.hookspecs": "hermes_core.hooks._specs",
    "hermes_core.llm.errors": "hermes_core._errors",
    "hermes_core.markers": "hermes_core.hooks._markers",
    "hermes_core.signatures": "hermes_core.hooks._signatures",
}
#: Old module path -> the module it is now.
MOVED: dict[str, str] = {
    **{old: "._".join(old.rsplit(".", 1)) for old in _RENAMED},
    **_ELSEWHERE,
}


class _MovedFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds the old paths of :data:`MOVED` and loads each as its new module."""

    def find_spec(
        self, fullname: str, path: object = None, target: object = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname not in MOVED:
            return None
        return importlib.util.spec_from_loader(fullname, self)

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        now = MOVED[spec.name]
        warnings.warn(
            f"{spec.name} is deprecated: it is the private module {now} now; import its "
            "names from hermes_core (this path goes in the next minor release)",
            DeprecationWarning,
            stacklevel=2,
        )
        return importlib.import_module(now)

    def exec_module(self, module: ModuleType) -> None:
        """The module ran under its new name already."""


def install() -> None:
    """Serve the old paths (once per process)."""
    if not any(isinstance(finder, _MovedFinder) for finder in sys.meta_path):
        sys.meta_path.append(_MovedFinder())

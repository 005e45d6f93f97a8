"""The public names of Hermes' ``agent.context_engine`` and ``agent.context_compressor``,
read from each release the suite keeps, are those ``hermes_names.PUBLIC_NAMES`` lists:
a name a new release adds fails here until the stand-in serves it or says it is Hermes'
own. The values the stand-in serves as Hermes' (keys, headings, sizes) are Hermes'."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from hermes_core.sources.hermes_plugins import _compressor_helpers as compressor_helpers
from hermes_core.sources.hermes_plugins._hermes_names import PUBLIC_NAMES
from tests.e2e.environments import environment, last_json, run

pytestmark = pytest.mark.e2e

#: Values the stand-in serves that must be Hermes' own, where the release has them.
SAME_VALUES = (
    "MEMORY_CONTEXT_MAX_CHARS", "LEGACY_SUMMARY_PREFIX", "COMPRESSED_SUMMARY_METADATA_KEY",
    "COMPRESSED_SUMMARY_HAS_USER_TURN_KEY", "MICRO_COMPACT_MARKER_KEY",
    "MODEL_ONLY_DISPLAY_METADATA_KEY", "PROACTIVE_PRUNE_REARM_MODEL_CONFIG_KEY",
    "SUMMARY_CARRIER_DURABLE_DISPLAY_METADATA_KEYS", "SKILL_PRUNED_MARKER_PREFIX",
    "HISTORICAL_TASK_HEADING", "HISTORICAL_IN_PROGRESS_HEADING",
    "HISTORICAL_PENDING_ASKS_HEADING", "HISTORICAL_REMAINING_WORK_HEADING",
    "LEAN_TAIL_FLOOR_TOKENS", "LEAN_TAIL_CAP_TOKENS", "TAIL_MAX_CONTEXT_FRACTION",
    "MINIMUM_CONTEXT_LENGTH", "CHARS_PER_TOKEN", "DETERMINISTIC_SUMMARY_ROUTE",
)  # fmt: skip
THRESHOLDS = {"gpt-4o": 0.6, "gpt-4o-mini": 0.65, "openai:gpt-4o-mini": 0.7, "claude": 0.8}
CASES = [("gpt-4o-mini", "openai"), ("gpt-4o-mini", "azure"), ("gpt-4o", ""), ("llama", "x"),
         ("claude-3", "openai")]  # fmt: skip

HERMES_SIDE = """
import ast, importlib, json, sys
TOP = {"agent", "hermes_cli", "plugins", "tools", "gateway", "hermes_state",
       "hermes_constants", "utils", "hermes_logging"}
same, thresholds, cases = json.loads(sys.argv[1])
names, values = {}, {}
for module in ("agent.context_engine", "agent.context_compressor"):
    loaded = importlib.import_module(module)
    tree = ast.parse(open(loaded.__file__, encoding="utf-8").read())
    found = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            found.add(node.name)
        elif isinstance(node, ast.Assign):
            found.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            found.add(node.target.id)
        elif (isinstance(node, ast.ImportFrom) and node.level == 0 and node.module
              and node.module.split(".")[0] in TOP):
            found.update(a.asname or a.name for a in node.names)
    names[module] = sorted(n for n in found if not n.startswith("_"))
    for name in same:
        if hasattr(loaded, name):
            values[name] = getattr(loaded, name)
compressor = importlib.import_module("agent.context_compressor")
resolve = getattr(compressor, "resolve_model_threshold", None)
resolved = [resolve(m, thresholds, 0.5, p) for m, p in cases] if resolve else None
print(json.dumps({"names": names, "values": values, "resolved": resolved}))
"""


def _hermes(python: Path, tmp_path: Path) -> dict[str, Any]:
    import json

    out = run(
        python,
        "-c",
        HERMES_SIDE,
        json.dumps([SAME_VALUES, THRESHOLDS, CASES]),
        env=environment(tmp_path, python),
    )
    found: dict[str, Any] = last_json(out.stdout)
    return found


def _stand_in_values() -> dict[str, Any]:
    import json

    from hermes_core.sources.hermes_plugins import _shims as shims

    values: dict[str, Any] = {}
    for module in PUBLIC_NAMES:
        for name, value in shims.stand_in_attributes(module).items():
            if name in SAME_VALUES:
                values[name] = json.loads(json.dumps(value))  # tuples as Hermes' JSON has them
    return values


def test_the_public_names_are_those_each_release_has(
    any_hermes: tuple[str, Path], tmp_path: Path
) -> None:
    release, python = any_hermes
    hermes = _hermes(python, tmp_path)
    for module, names in hermes["names"].items():
        assert set(names) == set(PUBLIC_NAMES[module][release]), (
            module,
            sorted(set(names) ^ set(PUBLIC_NAMES[module][release])),
        )


def test_what_the_stand_in_serves_as_hermes_values_is_hermes_own(
    any_hermes: tuple[str, Path], tmp_path: Path
) -> None:
    _, python = any_hermes
    hermes = _hermes(python, tmp_path)
    ours = _stand_in_values()
    assert hermes["values"], "no value read from Hermes"
    for name, value in hermes["values"].items():
        assert ours[name] == value, name
    if hermes["resolved"] is not None:
        assert hermes["resolved"] == [
            compressor_helpers.resolve_model_threshold(m, THRESHOLDS, 0.5, p) for m, p in CASES
        ]

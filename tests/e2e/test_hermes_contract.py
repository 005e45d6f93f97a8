"""Hermes Agent 0.22's context-engine contract, item by item, against what our adapter
(ours inside Hermes, on 0.19.0 and 0.22.2) and our host (a Hermes plugin's engine run by
``ContextHost``, with 0.22.2 installed) do with it. ``contract_probe.py`` tries each item
inside each Hermes venv; the results, with what each item is and why a "no" is one, are
``docs/probes/hermes_contract.json``, which docs/hermes-agent.md's table is written
from. The test fails when the probes and the file differ (``HERMES_WRITE_CONTRACT=1``
writes the file anew) and when a "no" has no reason."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.environments import ROOT, environment, last_json, run

pytestmark = pytest.mark.e2e

PROBE = Path(__file__).with_name("contract_probe.py")
TABLE = ROOT / "docs" / "probes" / "hermes_contract.json"

#: Each item of 0.22's contract: what Hermes 0.22 does with it.
ITEMS: dict[str, str] = {
    "update_from_response": "called after every response with its usage",
    "should_compress": "asked before each request at the threshold",
    "should_compress_info": "asked for the reason a pass runs",
    "compress": "runs a pass",
    "force": "`compress(force=True)` on a manual `/compress`: past an engine's cooldown",
    "memory_context": "`compress(memory_context=...)`: the memory provider's text, for the summary",
    "prune_tool_results_only": "called after each response below the threshold",
    "select_context": "chooses each request's messages",
    "on_turn_complete": "called when a turn ends",
    "should_compress_preflight": "asked below the threshold; yes runs exactly one pass",
    "should_defer_preflight_to_real_usage": "asked whether the last real usage beats its estimate",
    "get_automatic_compaction_status_message": "the line shown as a pass starts",
    "has_content_to_compress": "asked before a manual `/compress`",
    "on_session_start": "called as a session begins",
    "on_session_end": "called at a real session boundary",
    "on_session_reset": "called on `/new` and `/reset`",
    "get_tool_schemas": "the engine's tools, offered to the model",
    "handle_tool_call": "a call to one of the engine's tools",
    "get_status": "read for the status line",
    "clone_for_agent": "one engine per agent, from the registered one",
    "update_model": "called on a model switch",
    "pooled_threads": "a pass runs on a pooled thread, sessions at once, bounded by "
    "`compression.context_timeout_seconds`",
    "attempt_claim": "claims the engine for a pass by setting an attribute on it; a late "
    "pass's writes are discarded",
    "persisted_output": "a large tool result is saved to a file; the conversation keeps a "
    "`<persisted-output>` preview naming it",
}  # fmt: skip

#: Why a cell is "no" (or what stands in for it), per item and side.
REASONS: dict[tuple[str, str], str] = {
    ("memory_context", "adapter"): "taken by the host and offered to the engine; our two "
    "engines do not take it: their summaries are of the conversation alone (a memory "
    "provider's text is the provider's to keep)",
    ("attempt_claim", "host"): "not needed: the host runs one pass per session at a time and "
    "drops a pass that ends after its timeout, so no late pass writes anything",
    ("persisted_output", "host"): "not the host's: it runs no tools; a result the agent saved "
    "to a file reaches the engine as the preview the agent left",
}  # fmt: skip


def _probe(python: Path, tmp_path: Path) -> dict[str, Any]:
    home = tmp_path / "home"
    home.mkdir()
    out = run(python, str(PROBE), str(home), env=environment(home, python))
    return last_json(out.stdout)


def _cell(value: Any) -> str:
    if value is None:
        return "not in its base class"
    if value is True:
        return "yes"
    if value is False:
        return "no"
    return f"fails: {value}"


@pytest.fixture(scope="module")
def table(
    hermes_python: Path, current_hermes_python: Path, tmp_path_factory: pytest.TempPathFactory
) -> dict[str, Any]:
    old = _probe(hermes_python, tmp_path_factory.mktemp("0.19"))
    new = _probe(current_hermes_python, tmp_path_factory.mktemp("0.22"))
    rows = []
    for item, hermes in ITEMS.items():
        rows.append(
            {
                "item": item,
                "hermes_0_22": hermes,
                "ours_in_0_19": _cell(old["adapter"].get(item)),
                "ours_in_0_22": _cell(new["adapter"].get(item)),
                "plugins_here": _cell(new["host"].get(item, False)),
                "adapter_reason": REASONS.get((item, "adapter"), ""),
                "host_reason": REASONS.get((item, "host"), ""),
            }
        )
    return {"rows": rows}


def test_every_item_is_honoured_or_given_its_reason(table: dict[str, Any]) -> None:
    for row in table["rows"]:
        cells = {"adapter": row["ours_in_0_22"], "host": row["plugins_here"]}
        assert not any(c.startswith("fails") for c in cells.values()), row
        for side, cell in cells.items():
            if cell == "no":
                assert row[f"{side}_reason"], (row["item"], side)


def test_the_docs_table_is_what_the_probes_found(table: dict[str, Any]) -> None:
    written = json.dumps(table, indent=1, ensure_ascii=False) + "\n"
    if os.environ.get("HERMES_WRITE_CONTRACT") == "1":
        TABLE.write_text(written, encoding="utf-8")
    assert TABLE.read_text(encoding="utf-8") == written, (
        "the probes differ from docs/probes/hermes_contract.json: run "
        "HERMES_WRITE_CONTRACT=1 python -m pytest -m e2e tests/e2e/test_hermes_contract.py, "
        "then python docs/_ext/generated.py"
    )

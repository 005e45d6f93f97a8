"""docs/hermes-agent.md's table of Hermes Agent 0.22's contract, written from
``docs/probes/hermes_contract.json``.

That file is what ``tests/e2e/test_hermes_contract.py`` found when it tried each item of
the contract inside Hermes 0.19.0 and 0.22.2 (our adapter) and on our host (a Hermes
plugin's engine, 0.22.2 installed); the test fails when the file and the probes differ.
A part ``<!-- hermes-contract -->`` (see ``generated.py``) holds the table.
"""

from __future__ import annotations

import json
from pathlib import Path

SOURCE = Path(__file__).resolve().parents[1] / "probes" / "hermes_contract.json"
#: Items that are what Hermes does, not a name an engine has.
_BEHAVIOURS = {"pooled_threads", "attempt_claim", "persisted_output"}


def _cell(value: str, reason: str) -> str:
    return f"{value}: {reason}" if reason else value


def render() -> str:
    rows = [
        "| item | what Hermes 0.22 does | ours inside Hermes 0.19 | ours inside Hermes 0.22 "
        "| Hermes plugins on our host |",
        "|---|---|---|---|---|",
    ]
    for row in json.loads(SOURCE.read_text(encoding="utf-8"))["rows"]:
        item = row["item"]
        name = item.replace("_", " ") if item in _BEHAVIOURS else f"`{item}`"
        rows.append(
            f"| {name} | {row['hermes_0_22']} | {row['ours_in_0_19']} "
            f"| {_cell(row['ours_in_0_22'], row['adapter_reason'])} "
            f"| {_cell(row['plugins_here'], row['host_reason'])} |"
        )
    return "\n".join(rows) + "\n"

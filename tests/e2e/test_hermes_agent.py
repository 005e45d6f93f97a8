"""End to end inside the real Hermes Agent 0.19: our lcm through Hermes' own code, and the
Hermes-style fixture plugin loaded by Hermes itself.

The venv with ``hermes-agent==0.19.0`` comes from ``conftest.py``. Hermes talks
to an OpenAI-compatible server on 127.0.0.1 run by the test; no model and no
other network is used. The narrowest real
path: ``run_agent.AIAgent(...)`` runs Hermes' engine selection
(``agent_init.init_agent``), ``agent._compress_context`` is Hermes'
compression entry point, and ``agent.tool_executor.execute_tool_calls_sequential``
dispatches a tool call the way a model's would be.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.environments import ROOT, LLMServer, environment, hermes_home, last_json, run

pytestmark = pytest.mark.e2e

FIXTURE = ROOT / "tests" / "fixtures" / "hermes_plugins" / "tidy-context"
FACT = "The release train leaves from platform nine, every Thursday."

#: Runs inside the Hermes venv: build an agent, compress 300 messages, dispatch a tool.
PROBE = """
import json, sys
from types import SimpleNamespace
from run_agent import AIAgent
from agent.tool_executor import execute_tool_calls_sequential
from hermes_core.testing._conversations import sample_conversation

base_url, tool, query, fact = sys.argv[1:5]
agent = AIAgent(base_url=base_url, api_key="sk-test", provider="custom", model="test-model",
                quiet_mode=True, session_id="e2e-session")
engine = agent.context_compressor
conversation = sample_conversation(75, facts={3: fact})[1:]  # the system prompt is kept apart
compressed, _ = agent._compress_context(conversation, "You are a coding agent.", force=True)
call = SimpleNamespace(id="call_e2e", type="function",
                       function=SimpleNamespace(name=tool, arguments=json.dumps({"query": query})))
messages = list(compressed)
execute_tool_calls_sequential(agent, SimpleNamespace(content=None, tool_calls=[call]),
                              messages, "task-e2e")
print(json.dumps({
    "engine_class": type(engine).__module__ + "." + type(engine).__name__,
    "engine_name": engine.name,
    "tools": sorted(t["function"]["name"] for t in agent.tools),
    "before": len(conversation),
    "after": len(compressed),
    "fact_still_raw": any(m.get("content") == fact for m in compressed),
    "compressed": [str(m.get("content"))[:200] for m in compressed],
    "tool_answer": messages[-1].get("content"),
    "status": engine.get_status(),
}))
"""


def probe(python: Path, home: Path, base_url: str, tool: str, query: str) -> dict[str, Any]:
    out = run(python, "-c", PROBE, base_url, tool, query, FACT, env=environment(home, python))
    return last_json(out.stdout)


def test_hermes_selects_our_lcm_compresses_300_messages_and_dispatches_its_tool(
    tmp_path: Path, hermes_python: Path, llm_server: LLMServer
) -> None:
    base_url, seen = llm_server.url, llm_server.seen
    home = hermes_home(
        tmp_path / "hermes-home",
        base_url,
        "lcm",
        "hermes-context",
        "lcm:\n  threshold: 0.1\n  fresh_tail_messages: 8\n",
    )
    result = probe(hermes_python, home, base_url, "lcm_grep", "platform nine")
    # Hermes' own selection took the adapter our plugin registered, deep-copied per agent
    assert result["engine_class"] == "hermes_core.hermes_agent._adapter.HermesContextAdapter"
    assert result["engine_name"] == "lcm"
    assert {"lcm_grep", "lcm_describe", "lcm_expand"} <= set(result["tools"])
    # Hermes' compression entry point ran lcm: 300 messages folded, the fact with them
    assert result["before"] == 300 and 0 < result["after"] < 50
    assert not result["fact_still_raw"]
    assert any("SUMMARY-E2E" in text for text in result["compressed"])
    summaries = [s for s in seen if s["body"].get("model") == "aux-model"]
    assert summaries  # written by Hermes' call_llm against its auxiliary.compression
    # a tool call dispatched by Hermes' executor brings the folded fact back
    assert FACT in result["tool_answer"]
    assert result["status"]["stored_messages"] == 300
    assert (home / "lcm" / "lcm.db").is_file()


def test_the_hermes_style_fixture_plugin_runs_inside_hermes_as_it_does_on_our_host(
    tmp_path: Path, hermes_python: Path, llm_server: LLMServer
) -> None:
    base_url = llm_server.url
    home = hermes_home(tmp_path / "hermes-home", base_url, "tidy", "tidy-context")
    shutil.copytree(FIXTURE, home / "plugins" / "tidy-context")
    result = probe(hermes_python, home, base_url, "tidy_search", "platform nine")
    assert result["engine_name"] == "tidy"
    assert result["engine_class"].endswith(".engine.TidyEngine")  # Hermes' copy of it
    assert "tidy_search" in result["tools"]
    assert result["after"] < result["before"] == 300
    assert any(text.startswith("[tidy summary] SUMMARY-E2E") for text in result["compressed"])
    assert FACT in result["tool_answer"]
    assert (home / "tidy.db").is_file()


#: Runs inside the Hermes venv: Hermes' base class's hooks beside our declarations of them.
BASE_PROBE = """
import json, sys
from agent.context_engine import ContextEngine
from hermes_core import HOOKS
version = tuple(int(p) for p in sys.argv[1].split("."))
print(json.dumps({
    "hermes": sorted(n for n, v in vars(ContextEngine).items() if callable(v) and n[0] != "_"),
    "abstract": sorted(ContextEngine.__abstractmethods__),
    "declared": sorted(h.name for h in HOOKS.values() if h.in_hermes(version)),
    "required": sorted(h.name for h in HOOKS.values() if h.required),
}))
"""


def test_the_hooks_declared_on_hermes_base_class_are_those_of_the_real_one(
    any_hermes: tuple[str, Path],
) -> None:
    version, python = any_hermes
    found = last_json(run(python, "-c", BASE_PROBE, version).stdout)
    assert found["hermes"] == found["declared"]
    assert found["abstract"] == sorted([*found["required"], "name"])


#: Runs inside the Hermes venv: Hermes' own default config.yaml, read by our loader and by
#: the compressor and LCM as they read their sections.
CONFIG_PROBE = """
import json, logging, sys
import yaml
from hermes_cli.config import DEFAULT_CONFIG
from hermes_compressor.settings import RULES as COMPRESSION
from hermes_engine_lcm.settings import RULES as LCM
from hermes_core import load_config, read_section

seen = []
class Keep(logging.Handler):
    def emit(self, record):
        seen.append(getattr(record, "hermes_event", ""))
logging.getLogger("hermes_core").addHandler(Keep())
logging.getLogger("hermes_core").setLevel(logging.INFO)
path = sys.argv[1]
with open(path, "w") as out:
    yaml.safe_dump({**DEFAULT_CONFIG, "plugins": {"enabled": [], "disabled": []}}, out)
config = load_config(path)
read_section("compression", COMPRESSION, None, config)
read_section("lcm", LCM, None, config)
print(json.dumps({"events": seen, "compression": sorted(DEFAULT_CONFIG["compression"])}))
"""


def test_hermes_agents_own_default_config_has_no_key_we_call_unknown(
    hermes_python: Path, tmp_path: Path
) -> None:
    found = last_json(run(hermes_python, "-c", CONFIG_PROBE, str(tmp_path / "config.yaml")).stdout)
    assert "protect_last_n" in found["compression"]  # Hermes' keys are really in the section
    assert "hermes_config.unknown_key" not in found["events"]

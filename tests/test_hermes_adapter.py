"""Our engines as Hermes Agent engines: the adapter, exercised against Hermes' base class.

Hermes Agent is not installed here, so its three module names are the
stand-ins of :mod:`hermes_core.sources.hermes_plugins._shims` (their base class is
Hermes 0.19's, behaviour for behaviour). The e2e suite runs the same
adapter inside the real Hermes Agent 0.19.
"""

from __future__ import annotations

import copy
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pytest_httpserver import HTTPServer
from werkzeug import Request, Response

from hermes_core._tokens import estimate_tokens
from hermes_core.hermes_agent._adapter import hermes_engine
from hermes_core.llm import AuxiliaryLLMConfig, ChatClient
from hermes_core.sources.hermes_plugins import _shims as shims
from hermes_core.testing._conversations import sample_conversation

FACT = "The release train leaves from platform nine, every Thursday."


@pytest.fixture(autouse=True)
def hermes_names() -> Iterator[None]:
    before = set(sys.modules)
    shims.install()
    yield
    for name in set(sys.modules) - before:
        if name.split(".")[0] in ("agent", "hermes_cli"):
            del sys.modules[name]


def home_with(tmp_path: Path, config: str) -> Path:
    home = tmp_path / "hermes-home"
    home.mkdir()
    (home / "config.yaml").write_text(config, encoding="utf-8")
    return home


def test_with_hermes_own_compressor_selected_nothing_is_registered(tmp_path: Path) -> None:
    home = home_with(tmp_path, "context:\n  engine: compressor\n")
    assert hermes_engine(home, env={}) is None


def test_an_engine_that_is_not_ours_is_left_to_hermes(tmp_path: Path) -> None:
    home = home_with(tmp_path, "context:\n  engine: hermes-bundled-thing\n")
    assert hermes_engine(home, env={}) is None


def test_the_adapter_is_a_hermes_engine_and_each_copy_builds_its_own(tmp_path: Path) -> None:
    from agent.context_engine import ContextEngine

    home = home_with(tmp_path, "context:\n  engine: lcm\n")
    singleton = hermes_engine(home, env={})
    assert isinstance(singleton, ContextEngine) and singleton.name == "lcm"
    first, second = copy.deepcopy(singleton), copy.deepcopy(singleton)
    assert singleton._host is None  # registering and copying created no engine
    for agent_engine in (first, second):
        agent_engine.update_model("main", 32_000)
    assert first.host.engine is not second.host.engine
    assert first.threshold_tokens == first.host.engine.threshold_tokens > 0
    first.last_prompt_tokens = 31_000  # Hermes writes counters; they land on our engine
    assert first.host.engine.last_prompt_tokens == 31_000
    assert second.last_prompt_tokens == 0
    assert first.protect_first_n == 3 and isinstance(first.protect_last_n, int)


def test_hermes_compression_path_folds_a_long_conversation_and_the_tools_find_it(
    tmp_path: Path, httpserver: HTTPServer
) -> None:
    asked: list[dict[str, Any]] = []

    def handler(request: Request) -> Response:
        asked.append(json.loads(request.data))
        body = {"choices": [{"message": {"role": "assistant", "content": "Earlier work: done."}}]}
        return Response(json.dumps(body), content_type="application/json")

    httpserver.expect_request("/v1/chat/completions", method="POST").respond_with_handler(handler)
    home = home_with(tmp_path, "context:\n  engine: lcm\nlcm:\n  fresh_tail_messages: 8\n")
    engine: Any = copy.deepcopy(hermes_engine(home, env={}))
    engine.update_model("main", 16_000)
    engine.on_session_start("s1", hermes_home=str(home), platform="cli", model="main")
    conversation = sample_conversation(75, facts={3: FACT})  # 301 messages
    settings = AuxiliaryLLMConfig(base_url=httpserver.url_for("/v1"), model="aux")
    with shims.bound(ChatClient(settings, env={}), home):  # Hermes' call_llm, stood in for
        result = engine.compress(conversation, current_tokens=None, focus_topic=None)
    assert len(result) < len(conversation) and asked  # summaries came from the auxiliary LLM
    assert FACT not in json.dumps(result)  # folded away ...
    names = [schema["name"] for schema in engine.get_tool_schemas()]
    assert names == ["lcm_grep", "lcm_describe", "lcm_expand", "lcm_instructions"]
    found = engine.handle_tool_call("lcm_grep", {"query": "platform nine"}, messages=result)
    assert FACT in found  # ... and found again through the tool
    assert engine.get_status()["compression_count"] == 1


def test_hermes_manual_compress_under_the_threshold_shrinks_the_conversation(
    tmp_path: Path,
) -> None:
    home = home_with(tmp_path, "context:\n  engine: lcm\n")
    engine: Any = copy.deepcopy(hermes_engine(home, env={}))
    engine.update_model("main", 200_000)
    engine.on_session_start("s1", hermes_home=str(home), platform="cli", model="main")
    conversation = sample_conversation(40, facts={3: FACT})
    assert engine.should_compress(len(json.dumps(conversation)) // 4) is False
    # Hermes' /compress [focus]: _compress_context(..., focus_topic=..., force=True)
    result = engine.compress(conversation, None, "the release train", True)
    assert len(result) < len(conversation)
    found = engine.handle_tool_call("lcm_grep", {"query": "platform nine"}, messages=result)
    assert FACT in found


def test_inside_hermes_the_engine_is_told_the_whole_window(tmp_path: Path) -> None:
    """Hermes refuses an engine whose context_length is under 64,000: a 64,000-token model
    must read as 64,000, not as the window less the reply's reserve (55,808)."""
    home = home_with(tmp_path, "context:\n  engine: lcm\n")
    engine: Any = copy.deepcopy(hermes_engine(home, env={}))
    engine.update_model("main", 64_000)
    assert engine.context_length == 64_000
    assert engine.host.input_budget_tokens == 64_000 - 8_192  # what a request may hold
    engine.update_model("main", 204_800)
    assert engine.context_length == 204_800


def test_the_hooks_forwarded_are_those_the_installed_hermes_base_class_has(
    tmp_path: Path,
) -> None:
    """A Hermes whose base class has select_context, on_turn_complete and
    should_compress_info (0.20 and later, which skip a hook left at the base's default)
    gets ours for each: read from the class, not from a list of one version's hooks."""
    import types

    from hermes_core.hermes_agent._adapter import adapter_class
    from hermes_core.sources.hermes_plugins._hermes_abc import HermesContextEngine

    class Newer(HermesContextEngine):  # a later Hermes' base: more hooks, no-op defaults
        def select_context(self, request_messages: Any, **kwargs: Any) -> Any:
            return None

        def on_turn_complete(self, messages: Any, usage: Any = None, **kwargs: Any) -> None:
            return None

        def should_compress_info(self, prompt_tokens: Any = None) -> Any:
            return False, None

    module = types.ModuleType("agent.context_engine")
    module.ContextEngine = Newer  # type: ignore[attr-defined]
    sys.modules["agent.context_engine"] = module
    adapter = adapter_class()
    for hook in ("select_context", "on_turn_complete", "should_compress_info"):
        assert getattr(adapter, hook) is not getattr(Newer, hook), hook
    home = home_with(tmp_path, "context:\n  engine: lcm\n")
    engine: Any = copy.deepcopy(hermes_engine(home, env={}))
    assert Newer in type(engine).__mro__
    engine.update_model("main", 4_000)
    history = [*sample_conversation(60)]
    history.insert(5, {"role": "user", "content": FACT})
    engine.on_turn_complete(history, {"prompt_tokens": 10})
    ask = {"role": "user", "content": "Where does the release train leave from?"}
    request = engine.select_context(
        [*history, ask], conversation_messages=history, incoming_message=ask, budget_tokens=4_000
    )
    assert FACT in [m.get("content") for m in request]  # recalled without a tool call
    assert estimate_tokens(request) <= engine.host.input_budget_tokens  # the reply keeps room

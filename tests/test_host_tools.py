"""ContextHost engine tools: schema entries and dispatch that always answers JSON."""

from __future__ import annotations

import json
from typing import Any

from hermes_core.testing import EventCapture, host_for, sample_conversation
from tests.host_engines import Recording

GREP = {
    "name": "lcm_grep",
    "description": "Search",
    "parameters": {"type": "object", "properties": {"query": {"type": "string"}}},
}


class Tooled(Recording):
    def __init__(self) -> None:
        super().__init__()
        self.schemas: Any = [GREP, {"description": "nameless"}, {"name": "read_file"}, "junk"]

    @property
    def name(self) -> str:
        return "tooled"

    def get_tool_schemas(self) -> Any:
        return self.schemas

    def handle_tool_call(self, name: Any, args: Any, messages: Any = None) -> Any:  # type: ignore[override]
        self._record("handle_tool_call", name, args, messages=messages)
        if args.get("query") == "boom":
            raise ValueError("index corrupt")
        if args.get("query") == "object":
            return {"results": [1, 2]}
        if args.get("query") == "unserialisable":
            return object()
        return json.dumps({"results": [args["query"]]})


def test_schemas_become_function_entries_skipping_nameless_and_clashing(logs: EventCapture) -> None:
    host = host_for(Tooled)
    entries = host.tool_schemas(existing_tool_names=["read_file"])
    assert entries == [{"type": "function", "function": GREP}]
    reasons = sorted(e["reason"] for e in logs.named("context_engine.tool_skipped"))
    assert reasons == ["name_clash", "nameless", "nameless"]


def test_a_failing_or_odd_schema_listing_offers_no_tools(logs: EventCapture) -> None:
    host = host_for(Tooled)
    host.engine.schemas = "not a list"  # type: ignore[attr-defined]
    assert host.tool_schemas() == []
    assert logs.named("context_engine.tools_invalid")


def test_a_call_is_dispatched_with_a_copy_of_the_messages() -> None:
    host = host_for(Tooled)
    history = sample_conversation(1)
    answer = host.handle_tool_call("lcm_grep", {"query": "auth"}, messages=history)
    assert json.loads(answer) == {"results": ["auth"]}
    ((args, kwargs),) = host.engine.calls_to("handle_tool_call")  # type: ignore[attr-defined]
    assert args == ("lcm_grep", {"query": "auth"})
    assert kwargs["messages"] == history and kwargs["messages"] is not history


def test_json_text_arguments_are_accepted() -> None:
    host = host_for(Tooled)
    assert json.loads(host.handle_tool_call("lcm_grep", '{"query": "q"}')) == {"results": ["q"]}


def test_an_exception_becomes_a_json_error_naming_the_tool() -> None:
    host = host_for(Tooled)
    answer = json.loads(host.handle_tool_call("lcm_grep", {"query": "boom"}))
    assert answer == {"error": "Context engine tool 'lcm_grep' failed: ValueError: index corrupt"}


def test_bad_arguments_and_unknown_names_are_json_errors() -> None:
    host = host_for(Tooled)
    host.tool_schemas(existing_tool_names=["read_file"])
    assert "expects a JSON object" in json.loads(host.handle_tool_call("lcm_grep", [1]))["error"]
    assert "not JSON" in json.loads(host.handle_tool_call("lcm_grep", "{broken"))["error"]
    assert json.loads(host.handle_tool_call("read_file", {})) == {
        "error": "Unknown context engine tool: read_file"
    }
    assert json.loads(host.handle_tool_call("nope", {})) == {
        "error": "Unknown context engine tool: nope"
    }
    assert host.engine.calls_to("handle_tool_call") == []  # type: ignore[attr-defined]


def test_non_text_results_are_serialised_or_reported() -> None:
    host = host_for(Tooled)
    assert json.loads(host.handle_tool_call("lcm_grep", {"query": "object"})) == {"results": [1, 2]}
    error = json.loads(host.handle_tool_call("lcm_grep", {"query": "unserialisable"}))["error"]
    assert "returned object, not JSON text" in error

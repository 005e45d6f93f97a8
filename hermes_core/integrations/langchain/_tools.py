"""The engine's tools (LCM's ``lcm_grep``, ``lcm_describe``, ``lcm_expand``, ...) as
LangChain tools."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from langchain_core.tools import BaseTool, StructuredTool

from hermes_core.host import ContextHost

__all__ = ["engine_tools"]

#: What a tool reads the conversation from: the messages the agent holds now, in OpenAI
#: format (LCM's tools answer from its store; an engine may also read these).
Conversation = Callable[[], list[dict[str, Any]]]


def engine_tools(
    host: ContextHost,
    conversation: Conversation | None = None,
    existing_tool_names: Iterable[str] = (),
) -> list[BaseTool]:
    """One LangChain tool per tool the host's engine offers, named and described as the
    engine declares them, each answering through :meth:`ContextHost.handle_tool_call`
    (so a failing tool answers with a JSON error, as inside Hermes). Names in
    ``existing_tool_names`` are skipped, as the host skips them."""
    tools: list[BaseTool] = []
    for entry in host.tool_schemas(existing_tool_names):
        schema = entry["function"]
        tools.append(_tool(host, schema, conversation))
    return tools


def _tool(host: ContextHost, schema: dict[str, Any], conversation: Conversation | None) -> BaseTool:
    name = schema["name"]

    def call(**arguments: Any) -> str:
        messages = conversation() if conversation is not None else None
        return host.handle_tool_call(name, arguments, messages)

    parameters = schema.get("parameters") or {"type": "object", "properties": {}}
    return StructuredTool.from_function(
        func=call,
        name=name,
        description=schema.get("description") or name,
        args_schema=parameters,
    )

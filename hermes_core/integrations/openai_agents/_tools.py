"""The engine's tools (LCM's ``lcm_grep``, ``lcm_describe``, ``lcm_expand``, ...) as
the Agents SDK's function tools."""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from typing import Any

from agents import FunctionTool
from agents.tool_context import ToolContext

from hermes_core.host import ContextHost

__all__ = ["engine_function_tools"]


def engine_function_tools(
    host: ContextHost, session_id: str | None = None, existing_tool_names: Iterable[str] = ()
) -> list[FunctionTool]:
    """One ``FunctionTool`` per tool the host's engine offers, answering through
    :meth:`ContextHost.handle_tool_call` for ``session_id`` (default: the host's current
    session) on a worker thread. A failing tool answers the model with a JSON error, as
    inside Hermes; names in ``existing_tool_names`` are skipped."""
    return [
        _tool(host, entry["function"], session_id)
        for entry in host.tool_schemas(existing_tool_names)
    ]


def _tool(host: ContextHost, schema: dict[str, Any], session_id: str | None) -> FunctionTool:
    name = schema["name"]

    async def invoke(context: ToolContext[Any], arguments: str) -> str:
        return await asyncio.to_thread(
            host.handle_tool_call, name, arguments or "{}", session_id=session_id
        )

    return FunctionTool(
        name=name,
        description=schema.get("description") or name,
        params_json_schema=schema.get("parameters") or {"type": "object", "properties": {}},
        on_invoke_tool=invoke,
        strict_json_schema=False,  # the engine's schema, as its author wrote it
    )

"""The engine's tools as the host offers them and calls them, for one host.

:class:`EngineTools` remembers the names it offered last, so a call to a
name it never offered is answered as unknown without reaching the engine;
the checks of schemas and of calls are in :mod:`hermes_core.host._tools`.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from typing import Any

from hermes_core._containment import reraise_user_interrupt
from hermes_core.hooks._types import Messages, ToolSchema
from hermes_core.host._engine_calls import EngineCalls
from hermes_core.host._handed import HandedCopies
from hermes_core.host._tools import dispatch_tool_call, tool_entries, tool_failure

__all__ = ["EngineTools"]


class EngineTools:
    """The engine's ``get_tool_schemas`` and ``handle_tool_call``, bounded and checked."""

    def __init__(self, calls: EngineCalls, handed: HandedCopies) -> None:
        self._calls = calls
        self._handed = handed
        self._names: frozenset[str] | None = None

    def schemas(self, existing_tool_names: Iterable[str]) -> list[ToolSchema]:
        """``{"type": "function", "function": schema}`` entries; none when the engine fails."""
        calls = self._calls
        schemas: list[ToolSchema] = calls.bounded(
            "get_tool_schemas", calls.methods["get_tool_schemas"], []
        )
        entries, self._names = tool_entries(schemas, existing_tool_names, calls.name)
        return entries

    def handle(self, name: str, args: Any, messages: Messages | None, session: str | None) -> str:
        """The engine's answer to a call of its tool ``name``, as JSON text, always."""
        if self._names is None:
            self.schemas(())
        assert self._names is not None
        offered: dict[str, Any] = {"session_id": session}
        if messages is not None:
            offered["messages"] = messages  # copied in _bounded, where failures are caught
        extra = self._calls.keywords("handle_tool_call", offered)
        bounded = functools.partial(self._bounded, session)
        return dispatch_tool_call(bounded, self._names, name, args, extra)

    def _bounded(self, session: str | None, name: str, args: Any, **extra: Any) -> Any:
        """The engine's tool call, bounded; a tool that raises answers with what it raised."""
        handle = self._calls.methods["handle_tool_call"]
        handed = self._handed

        def run() -> Any:
            try:
                if "messages" in extra:
                    copies = handed.copies((session, "tool"), extra["messages"])
                    return handle(name, args, **{**extra, "messages": copies})
                return handle(name, args, **extra)
            except BaseException as exc:
                reraise_user_interrupt(exc)  # only ever true when run inline
                return tool_failure(name, exc)

        late = {"error": f"Context engine tool '{name}' did not answer in time"}
        return self._calls.bounded("handle_tool_call", run, late)

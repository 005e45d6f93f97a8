"""Engine tools: offering their schemas to the model and dispatching calls to the engine."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from typing import Any

from hermes_core._containment import reraise_user_interrupt
from hermes_core._log import logger
from hermes_core.hooks._types import ToolSchema

__all__ = [
    "dispatch_tool_call",
    "tool_entries",
    "tool_failure",
]


def tool_entries(
    schemas: object, existing_tool_names: Iterable[str], engine_name: str
) -> tuple[list[ToolSchema], frozenset[str]]:
    """``{"type": "function", "function": schema}`` entries and the names they offer.

    Schemas without a string ``name`` and names that clash with the host's
    own tools (or an earlier engine schema) are skipped with a warning.
    """
    if not isinstance(schemas, list):
        logger.warning(
            "context_engine.tools_invalid", engine=engine_name, got=type(schemas).__name__
        )
        return [], frozenset()
    taken = set(existing_tool_names)
    entries = []
    names = set()
    for schema in schemas:
        name = schema.get("name") if isinstance(schema, dict) else None
        if not isinstance(name, str) or not name:
            logger.warning("context_engine.tool_skipped", engine=engine_name, reason="nameless")
            continue
        if name in taken:
            logger.warning(
                "context_engine.tool_skipped", engine=engine_name, tool=name, reason="name_clash"
            )
            continue
        taken.add(name)
        names.add(name)
        entries.append({"type": "function", "function": dict(schema)})
    return entries, frozenset(names)


def _error(text: str) -> str:
    return json.dumps({"error": text})


def tool_failure(name: str, exc: BaseException) -> str:
    """The JSON answer for a tool that raised ``exc`` (logged as ``context_engine.tool_failed``)."""
    logger.warning("context_engine.tool_failed", tool=name, error=f"{type(exc).__name__}: {exc}")
    return _error(f"Context engine tool '{name}' failed: {type(exc).__name__}: {exc}")


def dispatch_tool_call(
    handle: Callable[..., Any],
    known: frozenset[str],
    name: str,
    args: object,
    extra: dict[str, Any],
) -> str:
    """Call the engine's ``handle_tool_call`` and always return JSON text.

    ``args`` may be a dict or a JSON object in a string (as models send it).
    The engine's text is returned as it is; a dict or list it returns is
    serialised. Unknown names, bad arguments, exceptions and any other result
    become ``{"error": ...}`` JSON.
    """
    if not isinstance(name, str) or name not in known:
        shown = name if isinstance(name, str) else f"a {type(name).__name__}, not a name"
        return _error(f"Unknown context engine tool: {shown[:100]}")
    if isinstance(args, str):
        try:
            args = json.loads(args) if args.strip() else {}
        except (ValueError, RecursionError) as exc:
            reason = "nested too deeply" if isinstance(exc, RecursionError) else str(exc)
            return _error(f"Context engine tool '{name}' got arguments that are not JSON: {reason}")
    if not isinstance(args, dict):
        return _error(
            f"Context engine tool '{name}' expects a JSON object of arguments, "
            f"got {type(args).__name__}"
        )
    try:
        result = handle(name, args, **extra)
    except BaseException as exc:
        reraise_user_interrupt(exc)
        return tool_failure(name, exc)
    if isinstance(result, str):
        return result
    if isinstance(result, (dict, list)):
        try:
            return json.dumps(result)
        except (TypeError, ValueError):
            pass
    return _error(f"Context engine tool '{name}' returned {type(result).__name__}, not JSON text")

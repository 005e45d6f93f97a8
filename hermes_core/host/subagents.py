"""What the host accepts from an engine's ``clone_for_agent`` for a sub-agent's host."""

from __future__ import annotations

from hermes_core.engine import ContextEngine
from hermes_core.host.bounded import contained

__all__ = ["clone_problem"]


def clone_problem(clone: object, engine: ContextEngine, name: str) -> str | None:
    """What makes ``clone`` unfit to serve another agent in place of ``engine`` (registered as
    ``name``), as text; None when it is fit: a different engine object reporting ``name``."""
    if not isinstance(clone, ContextEngine):
        return f"clone_for_agent() gave {type(clone).__name__}, not an engine (or failed)"
    if clone is engine:
        return "clone_for_agent() gave back the engine itself, which would be shared"
    reported = contained("name", lambda: clone.name, None, lambda *_: None)
    if reported != name:
        return f"clone_for_agent() gave an engine named {reported!r}, not {name!r}"
    return None

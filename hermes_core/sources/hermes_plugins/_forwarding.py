"""The hooks of Hermes Agent's base class, on the classes that stand between Hermes and
an engine, for each hook none of them spells out.

Three classes carry Hermes' hooks: the stand-in for Hermes' base class
(:mod:`~hermes_core.sources.hermes_plugins._hermes_abc`), our wrapper around a Hermes
engine (:mod:`~hermes_core.sources.hermes_plugins._wrapped_engine`) and the adapter
that runs our host inside Hermes (:mod:`hermes_core.hermes_agent._adapter`).
Each spells out the hooks whose calls need adapting; :func:`add_forwarding`
gives it the rest, read from the hooks' declarations (``hermes_base``), so a
hook Hermes' base class gains needs no edit here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hermes_core.hooks._record import Hook
from hermes_core.hooks._specs import HOOKS

__all__ = ["HERMES_BASE_HOOKS", "add_forwarding"]

#: The hooks the base class of the newest Hermes Agent checked has, in declaration order.
HERMES_BASE_HOOKS: tuple[Hook, ...] = tuple(h for h in HOOKS.values() if h.hermes_base)


def add_forwarding(
    cls: type, forward: Callable[[Hook], Callable[..., Any]], *, since: str | None = None
) -> None:
    """Set ``forward(hook)`` as ``cls``'s method for each of Hermes' hooks ``cls`` lacks
    (with ``since``, only those Hermes' base class has had since that release)."""
    for hook in HERMES_BASE_HOOKS:
        if since is not None and hook.hermes_since != since:
            continue
        if hook.name not in vars(cls):
            method = forward(hook)
            method.__name__ = method.__qualname__ = hook.name
            setattr(cls, hook.name, method)

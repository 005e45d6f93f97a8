"""The host's method for an engine hook it has no method of its own for.

Most hooks need host logic of their own (a pass's lock, a selection's
checks), and :class:`~hermes_core.ContextHost` spells those out. A hook
declared with nothing special gets this one, written from its
:class:`~hermes_core.Hook` record: the arguments the hook always takes,
copied, by position (or by keyword, where it declares them keyword-only);
the keywords the engine's method accepts, copied; the call inline or
bounded as declared; and ``fallback_value`` when the engine raises or is
late. So adding a plain hook needs only its declaration and the
base class's default.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from hermes_core.hooks._record import INLINE, Hook
from hermes_core.hooks._signatures import accepted_keywords
from hermes_core.host._bounded import contained
from hermes_core.messages import copy_message, copy_messages

if TYPE_CHECKING:
    from hermes_core.host._host import ContextHost

__all__ = ["add_generic_methods", "generic_method"]


def _copied(value: Any) -> Any:
    """A list or dict the engine may change without changing the caller's."""
    if isinstance(value, list):
        return copy_messages(value)
    if isinstance(value, dict):
        return copy_message(value)
    return value


def generic_method(hook: Hook) -> Callable[..., Any]:
    """``ContextHost.<hook.host_method>``, calling the engine's ``hook.name`` as declared."""

    def call(host: ContextHost, *args: Any, **kwargs: Any) -> Any:
        bound = hook.signature.bind(*args, **kwargs)  # the caller's mistake raises TypeError
        method = host._methods.get(hook.name) or getattr(host.engine, hook.name)
        positional = [_copied(bound.arguments[name]) for name in hook.arguments]
        offered = {k: _copied(v) for k, v in bound.arguments.items() if k in hook.keywords}
        keywords = accepted_keywords(getattr(host.engine, hook.name), offered)
        keywords.update({k: _copied(bound.arguments[k]) for k in hook.required_keywords})
        fallback = copy.deepcopy(hook.fallback_value)
        if hook.call == INLINE:
            return contained(
                hook.name, lambda: method(*positional, **keywords), fallback, host._failed
            )
        return host._bounded(hook.name, method, fallback, *positional, **keywords)

    call.__name__ = call.__qualname__ = hook.host_method
    call.__doc__ = hook.description
    return call


def add_generic_methods(host_class: type, hooks: dict[str, Hook]) -> None:
    """Give ``host_class`` a generic method for each hook whose host method it lacks."""
    for hook in hooks.values():
        if not hasattr(host_class, hook.host_method):
            setattr(host_class, hook.host_method, generic_method(hook))

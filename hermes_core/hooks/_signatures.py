"""Passing a callable only the keyword arguments it accepts.

The host uses this to keep engines written for an older, shorter signature
working when it learns to pass more (``compress(..., force=True)``), and to
hand engine factories only the context they ask for.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from functools import lru_cache
from typing import Any

__all__ = ["accepted_keywords", "call_with_accepted"]


@lru_cache(maxsize=1024)
def _keyword_names(func: Callable[..., Any]) -> frozenset[str] | None:
    """Parameter names ``func`` accepts by keyword; None when it takes ``**kwargs``."""
    try:
        signature = inspect.signature(func)
    except (TypeError, ValueError):
        return frozenset()
    names = set()
    for parameter in signature.parameters.values():
        if parameter.kind is inspect.Parameter.VAR_KEYWORD:
            return None
        if parameter.kind in (
            inspect.Parameter.POSITIONAL_OR_KEYWORD,
            inspect.Parameter.KEYWORD_ONLY,
        ):
            names.add(parameter.name)
    return frozenset(names)


def accepted_keywords(func: Callable[..., Any], offered: Mapping[str, Any]) -> dict[str, Any]:
    """The items of ``offered`` that ``func`` accepts as keyword arguments."""
    target = getattr(func, "__func__", func)  # cache bound methods by their function
    try:
        names = _keyword_names(target)
    except TypeError:  # unhashable callable
        names = _keyword_names.__wrapped__(target)
    if names is None:
        return dict(offered)
    return {key: value for key, value in offered.items() if key in names}


def call_with_accepted(
    func: Callable[..., Any], *args: Any, offered: Mapping[str, Any] | None = None
) -> Any:
    """Call ``func(*args, **accepted)``, passing only the offered keywords it accepts."""
    if not offered:
        return func(*args)
    return func(*args, **accepted_keywords(func, offered))

"""``KeyRule``: one configuration key, its check, what it expects, its default and its
documentation. The core's keys and every engine's section are declared with it."""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

__all__ = ["KeyRule", "defaults_of"]


@dataclass(frozen=True)
class KeyRule:
    """One checked key.

    ``path`` is dotted from the top of ``config.yaml`` (``lcm.fresh_tail_messages``);
    ``check`` accepts a value or not; ``expected`` says in words what it
    accepts (it goes into every error about the key); ``default`` applies
    when the key is absent or its value is rejected; ``doc`` is the sentence
    the configuration reference shows. ``state`` marks a key that says where
    the engine keeps its state (a database file or URL): commands that try an
    engine with the user's settings (``--use-config``) keep its default, so the
    state stays in their throwaway home.
    """

    path: str
    check: Callable[[object], bool]
    expected: str
    default: Any
    doc: str
    state: bool = False

    @property
    def key(self) -> str:
        """The last part of ``path``: the key inside its section."""
        return self.path.rsplit(".", 1)[-1]

    def fresh_default(self) -> Any:
        """The default, copied when it is a container, so no caller can change the rule's."""
        return copy.deepcopy(self.default)


def defaults_of(rules: Iterable[KeyRule]) -> dict[str, Any]:
    """Each rule's key mapped to its default (fresh copies)."""
    return {rule.key: rule.fresh_default() for rule in rules}

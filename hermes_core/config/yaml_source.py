"""Reading YAML safely, and finding the line a key path stands on."""

from __future__ import annotations

from typing import Any

import yaml

try:  # The C loader is several times faster; both construct plain data only.
    from yaml import CSafeLoader as _SafeLoader
except ImportError:  # pragma: no cover - depends on how PyYAML was built
    from yaml import SafeLoader as _SafeLoader  # type: ignore[assignment]

__all__ = ["YamlSyntaxError", "line_of", "parse_yaml"]


class YamlSyntaxError(ValueError):
    """The text is not valid YAML; ``line`` and ``column`` are 1-based or None."""

    def __init__(self, message: str, line: int | None, column: int | None = None) -> None:
        super().__init__(message)
        self.line = line
        self.column = column


def parse_yaml(text: str) -> Any:
    """Parse ``text`` into plain data (mappings, lists, scalars); nothing is executed."""
    try:
        return yaml.load(text, Loader=_SafeLoader)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
        line = mark.line + 1 if mark is not None else None
        column = mark.column + 1 if mark is not None else None
        problem = getattr(exc, "problem", None) or str(exc)
        raise YamlSyntaxError(f"invalid YAML: {problem}", line, column) from None


def line_of(text: str, path: str, *, of_key: bool = False) -> int | None:
    """The 1-based line of the value at dotted ``path`` in ``text`` (of its key with
    ``of_key``), or None.

    Only called on the error path: it composes the document a second time.
    """
    try:
        node = yaml.compose(text, Loader=_SafeLoader)
    except yaml.YAMLError:
        return None
    key_node: yaml.Node | None = None
    for part in path.split("."):
        if not isinstance(node, yaml.MappingNode):
            return None
        for key_node, value_node in node.value:
            if isinstance(key_node, yaml.ScalarNode) and key_node.value == part:
                node = value_node
                break
        else:
            return None
    found = key_node if of_key else node
    return found.start_mark.line + 1 if found is not None else None

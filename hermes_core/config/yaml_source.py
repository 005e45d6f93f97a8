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
    """The text is not valid YAML; ``line`` is 1-based or None."""

    def __init__(self, message: str, line: int | None) -> None:
        super().__init__(message)
        self.line = line


def parse_yaml(text: str) -> Any:
    """Parse ``text`` into plain data (mappings, lists, scalars); nothing is executed."""
    try:
        return yaml.load(text, Loader=_SafeLoader)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
        line = mark.line + 1 if mark is not None else None
        problem = getattr(exc, "problem", None) or str(exc)
        raise YamlSyntaxError(f"invalid YAML: {problem}", line) from None


def line_of(text: str, path: str) -> int | None:
    """The 1-based line of the value at dotted ``path`` in ``text``, or None.

    Only called on the error path: it composes the document a second time.
    """
    try:
        node = yaml.compose(text, Loader=_SafeLoader)
    except yaml.YAMLError:
        return None
    for part in path.split("."):
        if not isinstance(node, yaml.MappingNode):
            return None
        for key_node, value_node in node.value:
            if isinstance(key_node, yaml.ScalarNode) and key_node.value == part:
                node = value_node
                break
        else:
            return None
    return node.start_mark.line + 1 if node is not None else None

"""Reading YAML safely, and finding the line a key path stands on."""

from __future__ import annotations

from typing import Any

import yaml

try:  # The C loader is several times faster; both construct plain data only.
    from yaml import CSafeLoader as _SafeLoader
except ImportError:  # pragma: no cover - depends on how PyYAML was built
    from yaml import SafeLoader as _SafeLoader  # type: ignore[assignment]
from hermes_core._errors import YamlSyntaxError

__all__ = [
    "MAX_EXPANDED_NODES",
    "MAX_YAML_BYTES",
    "YamlSyntaxError",
    "key_lines",
    "line_of",
    "parse_yaml",
]

#: The largest configuration text read (a Hermes Agent config.yaml is a few KiB).
MAX_YAML_BYTES = 2 * 1024 * 1024
#: How many values a document may hold once its aliases are expanded: an
#: alias bomb of a few hundred bytes expands to billions.
MAX_EXPANDED_NODES = 200_000


def _expanded_size(node: yaml.Node, sizes: dict[int, int]) -> int:
    """How many values ``node`` stands for with every alias expanded (shared nodes counted
    each time they are used), computed once per distinct node."""
    known = sizes.get(id(node))
    if known is not None:
        return known
    sizes[id(node)] = 1  # a recursive alias counts once rather than looping
    if isinstance(node, yaml.MappingNode):
        size = 1 + sum(_expanded_size(k, sizes) + _expanded_size(v, sizes) for k, v in node.value)
    elif isinstance(node, yaml.SequenceNode):
        size = 1 + sum(_expanded_size(item, sizes) for item in node.value)
    else:
        size = 1
    sizes[id(node)] = size
    return size


def _duplicate_key(node: yaml.Node, seen: set[int]) -> tuple[str, int, int] | None:
    """The first key a mapping holds twice: (key, first line, second line)."""
    if id(node) in seen:
        return None
    seen.add(id(node))
    if isinstance(node, yaml.MappingNode):
        lines: dict[str, int] = {}
        for key, value in node.value:
            if isinstance(key, yaml.ScalarNode) and key.value != "<<":
                if key.value in lines:
                    return key.value, lines[key.value], key.start_mark.line + 1
                lines[key.value] = key.start_mark.line + 1
            found = _duplicate_key(value, seen)
            if found:
                return found
    elif isinstance(node, yaml.SequenceNode):
        for item in node.value:
            found = _duplicate_key(item, seen)
            if found:
                return found
    return None


def parse_yaml(text: str) -> Any:
    """Parse ``text`` into plain data (mappings, lists, scalars); nothing is executed.

    Raises :class:`YamlSyntaxError` for invalid YAML, a text over
    :data:`MAX_YAML_BYTES`, aliases that expand to more than
    :data:`MAX_EXPANDED_NODES` values (checked before anything is built), and
    a key that a mapping holds twice (YAML would silently keep the last).
    """
    if len(text) > MAX_YAML_BYTES:
        raise YamlSyntaxError(
            f"the file is {len(text):,} characters, more than a configuration holds "
            f"(at most {MAX_YAML_BYTES:,}); is it the right file?",
            None,
        )
    loader = _SafeLoader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        if _expanded_size(node, {}) > MAX_EXPANDED_NODES:
            raise YamlSyntaxError(
                f"its aliases expand to more than {MAX_EXPANDED_NODES:,} values; "
                "write the values out instead of nesting aliases",
                None,
            )
        duplicate = _duplicate_key(node, set())
        if duplicate is not None:
            key, first, second = duplicate
            raise YamlSyntaxError(
                f"key '{key}' appears twice (lines {first} and {second}); YAML would keep only "
                "the second: merge them into one",
                second,
            )
        return loader.construct_document(node)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
        line = mark.line + 1 if mark is not None else None
        column = mark.column + 1 if mark is not None else None
        problem = getattr(exc, "problem", None) or str(exc)
        raise YamlSyntaxError(f"invalid YAML: {problem}", line, column) from None
    except RecursionError:
        raise YamlSyntaxError("it nests deeper than a configuration can", None) from None
    finally:
        loader.dispose()


def key_lines(text: str, section: str) -> dict[str, int]:
    """The 1-based line of each key of the mapping at dotted ``section`` in ``text``; {} when
    there is none. One composition of the document, however many keys: for many keys at
    once (a file's unknown keys), where :func:`line_of` would compose it once per key."""
    try:
        node = yaml.compose(text, Loader=_SafeLoader)
    except yaml.YAMLError:
        return {}
    for part in section.split("."):
        if not isinstance(node, yaml.MappingNode):
            return {}
        node = next(
            (
                value
                for key, value in node.value
                if isinstance(key, yaml.ScalarNode) and key.value == part
            ),
            None,
        )
    if not isinstance(node, yaml.MappingNode):
        return {}
    lines: dict[str, int] = {}
    for key, _ in node.value:
        if isinstance(key, yaml.ScalarNode):
            lines.setdefault(key.value, key.start_mark.line + 1)
    return lines


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

"""Adding one plugin to ``plugins.enabled`` in a user's ``config.yaml``, and nothing else.

The same splice as :mod:`hermes_core.config._editing`: the plugin's name is
inserted at the positions YAML's composer reports, in the list's own style
(a flow list ``[a, b]`` gains ``, name``; a block list gains a ``- name``
line indented as its items), every other byte kept. The result is parsed
again and must differ from the original only by that one entry; otherwise
nothing is written.
"""

from __future__ import annotations

from typing import Any

import yaml

from hermes_core.config._editing import (
    _NULL_LINE,
    ConfigEditError,
    _compose_top,
    _find,
    _scalar,
    append_section,
    fill_null_section,
    insert_first,
    without_key,
)
from hermes_core.config._yaml_source import parse_yaml

__all__ = ["enable_plugin"]


def _line_end(text: str, index: int) -> int:
    end = text.find("\n", index)
    return len(text) if end < 0 else end


def _null_value(text: str, key: yaml.Node, entry: str, newline: str) -> str:
    """``key:`` (or ``key: ~``) with nothing under it gets ``entry`` on its line; a comment
    on the line stays."""
    end = _line_end(text, key.end_mark.index)
    line = text[key.end_mark.index : end].rstrip("\r")
    match = _NULL_LINE.fullmatch(line[1:]) if line.startswith(":") else None
    if match is None:
        raise ConfigEditError(f"'{key.value}' has a value on its line that is not plain null")
    comment = f"  {match.group(2)}" if match.group(2) else ""
    return f"{text[: key.end_mark.index]}: {entry}{comment}{text[key.end_mark.index + len(line) :]}"


def _into_sequence(text: str, sequence: yaml.SequenceNode, name: str, newline: str) -> str:
    """``name`` appended to the sequence, in its style."""
    item = _scalar(name, None)
    if sequence.flow_style:
        close = sequence.end_mark.index - 1  # the "]"
        if text[close] != "]":
            raise ConfigEditError("'plugins.enabled' is a flow list that does not end with ']'")
        separator = ", " if sequence.value else ""
        return text[:close].rstrip() + separator + item + text[close:]
    last = sequence.value[-1]
    line_start = text.rfind("\n", 0, last.start_mark.index) + 1
    prefix = text[line_start : last.start_mark.index]
    if not prefix.strip().startswith("-") or prefix.replace("-", " ").strip():
        raise ConfigEditError("'plugins.enabled' has an item sharing its line with other text")
    end = _line_end(text, last.end_mark.index)
    line_end = end - 1 if end > 0 and text[end - 1 : end] == "\r" else end
    return text[:line_end] + newline + prefix + item + text[line_end:]


def _edit(text: str, name: str, newline: str) -> str:
    root = _compose_top(text)
    pair = _find(root, "plugins") if root is not None else None
    entry = f"enabled: [{_scalar(name, None)}]"
    if pair is None:
        return append_section(text, "plugins", entry, newline)
    key, plugins = pair
    if plugins.start_mark.index < key.end_mark.index:
        raise ConfigEditError("'plugins' is an alias of another node")
    if isinstance(plugins, yaml.ScalarNode) and plugins.tag == "tag:yaml.org,2002:null":
        return fill_null_section(text, key, entry, newline)
    if not isinstance(plugins, yaml.MappingNode):
        raise ConfigEditError("'plugins' is not a mapping")
    enabled = _find(plugins, "enabled")
    if enabled is None:
        return insert_first(text, "plugins", plugins, entry, newline)
    enabled_key, value = enabled
    if value.start_mark.index < enabled_key.end_mark.index:
        raise ConfigEditError("'plugins.enabled' is an alias of another node")
    if isinstance(value, yaml.ScalarNode) and value.tag == "tag:yaml.org,2002:null":
        return _null_value(text, enabled_key, f"[{_scalar(name, None)}]", newline)
    if not isinstance(value, yaml.SequenceNode):
        raise ConfigEditError("'plugins.enabled' is not a list")
    return _into_sequence(text, value, name, newline)


def _enabled(data: Any) -> list[Any]:
    plugins = data.get("plugins") if isinstance(data, dict) else None
    enabled = plugins.get("enabled") if isinstance(plugins, dict) else None
    return list(enabled) if isinstance(enabled, list) else []


def enable_plugin(text: str, name: str) -> str:
    """``text`` with ``name`` added to ``plugins.enabled`` (``text`` itself when it is there
    already), every other byte as it was. Raises :class:`~hermes_core.config._editing.
    ConfigEditError` (nothing is to be written) when the file cannot be edited safely."""
    before = parse_yaml(text) if text.strip() else {}
    if name in _enabled(before):
        return text
    newline = "\r\n" if "\r\n" in text else "\n"
    edited = _edit(text, name, newline)
    after = parse_yaml(edited)
    if _enabled(after) != [*_enabled(before), name]:
        raise ConfigEditError(f"the edit would not add {name!r} to plugins.enabled")
    if without_key(before, "plugins", "enabled") != without_key(after, "plugins", "enabled"):
        raise ConfigEditError("the edit would change other keys")
    return edited

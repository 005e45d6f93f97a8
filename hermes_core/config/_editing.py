"""Changing one key of a user's ``config.yaml`` and nothing else.

The file is often the whole setup of an agent (Hermes Agent keeps every
setting there), with comments, anchors, merge keys and a quoting style of its
owner's. A load-and-dump round trip loses all of that, so the edit is a
splice: the new value replaces the text of the old one (or one line is
inserted), at the positions YAML's composer reports, and every other byte
stays as it was. The result is parsed again and must differ from the
original in that key only; otherwise nothing is written.
"""

from __future__ import annotations

import json
import re
from typing import Any

import yaml

from hermes_core._errors import ConfigEditError
from hermes_core.config._yaml_source import YamlSyntaxError, parse_yaml

__all__ = [
    "ConfigEditError",
    "append_section",
    "fill_null_section",
    "insert_first",
    "set_context_engine",
    "without_key",
]


def _scalar(name: str, style: str | None) -> str:
    """``name`` as a YAML scalar that reads back as the string ``name``, in ``style`` if given."""
    if style == "'":
        return "'" + name.replace("'", "''") + "'"
    if style == '"' or parse_yaml(name) != name:
        return json.dumps(name)
    return name


def _find(mapping: yaml.MappingNode, key: str) -> tuple[yaml.Node, yaml.Node] | None:
    """The last ``key: value`` pair of ``mapping`` whose key is ``key`` (YAML's last one wins)."""
    found = None
    for key_node, value_node in mapping.value:
        if isinstance(key_node, yaml.ScalarNode) and key_node.value == key:
            found = (key_node, value_node)
    return found


_NULL_LINE = re.compile(r"[ \t]*(~|null|Null|NULL)?[ \t]*(#.*)?")


def _compose_top(text: str) -> yaml.MappingNode | None:
    """The file's top-level mapping (None for an empty file), or why it cannot be edited."""
    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError as exc:
        raise ConfigEditError(f"it is not valid YAML ({exc}); fix the file first") from None
    if root is None:
        return None
    if not isinstance(root, yaml.MappingNode) or root.flow_style:
        raise ConfigEditError("its top level is not a block mapping of sections")
    return root


def append_section(text: str, section: str, entry: str, newline: str) -> str:
    """A file without ``section`` gets it at its end, holding the line ``entry``
    (``engine: lcm``)."""
    separator = newline if text and not text.endswith(("\n", "\r")) else ""
    return f"{text}{separator}{section}:{newline}  {entry}{newline}"


def fill_null_section(text: str, key: yaml.Node, entry: str, newline: str) -> str:
    """A section ``key:`` (or ``key: ~``) with nothing under it gets the line ``entry``
    (``engine: lcm``) under it; the null goes, a comment on the line stays."""
    rest = text[key.end_mark.index :].split("\n", 1)
    line = rest[0].rstrip("\r")
    match = _NULL_LINE.fullmatch(line[1:]) if line.startswith(":") else None
    if match is None:
        raise ConfigEditError(f"'{key.value}:' has a value on its line that is not plain null")
    if match.group(1) is not None:
        line = (line[: 1 + match.start(1)] + line[1 + match.end(1) :]).rstrip()
    indent = " " * (key.start_mark.column + 2)
    end = key.end_mark.index + len(rest[0].rstrip("\r"))
    return f"{text[: key.end_mark.index]}{line}{newline}{indent}{entry}{text[end:]}"


def _replace_engine(text: str, context: yaml.MappingNode, value: yaml.Node, name: str) -> str:
    """The text of ``context.engine``'s value replaced, in the value's own quoting style."""
    if value.start_mark.index < context.start_mark.index:
        raise ConfigEditError("'context.engine' is an alias of another node")
    if not isinstance(value, yaml.ScalarNode) or value.style not in (None, "'", '"'):
        raise ConfigEditError("'context.engine' is not a one-line scalar")
    start, end = value.start_mark.index, value.end_mark.index
    return text[:start] + _scalar(name, value.style) + text[end:]


def insert_first(
    text: str, section: str, mapping: yaml.MappingNode, entry: str, newline: str
) -> str:
    """``entry`` (``engine: lcm``) as the first entry of ``section``'s mapping: in a flow
    mapping (``{...}``) before the others; in a block one, a line before its first key,
    indented as that key is."""
    if mapping.flow_style:
        brace = mapping.start_mark.index
        if not mapping.value:
            return text[:brace] + "{" + entry + "}" + text[mapping.end_mark.index :]
        return text[: brace + 1] + entry + ", " + text[brace + 1 :]
    first_key = mapping.value[0][0]
    line_start = first_key.start_mark.index - first_key.start_mark.column
    if text[line_start : first_key.start_mark.index].strip():
        raise ConfigEditError(f"'{section}' starts on a line shared with other text")
    indent = " " * first_key.start_mark.column
    return text[:line_start] + f"{indent}{entry}{newline}" + text[line_start:]


def _edit(text: str, name: str, newline: str) -> str:
    """``text`` with ``context.engine`` spliced in as ``name``: one step per shape the
    ``context`` section can have (missing, null, a mapping with or without ``engine``,
    in block or flow style)."""
    root = _compose_top(text)
    value_text = _scalar(name, None)
    pair = _find(root, "context") if root is not None else None
    if pair is None:
        return append_section(text, "context", f"engine: {value_text}", newline)
    key, context = pair
    if context.start_mark.index < key.end_mark.index:
        raise ConfigEditError("'context' is an alias of another node, which the edit would change")
    if isinstance(context, yaml.ScalarNode) and context.tag == "tag:yaml.org,2002:null":
        return fill_null_section(text, key, f"engine: {value_text}", newline)
    if not isinstance(context, yaml.MappingNode):
        raise ConfigEditError("'context' is not a mapping")
    engine = _find(context, "engine")
    if engine is not None:
        return _replace_engine(text, context, engine[1], name)
    return insert_first(text, "context", context, f"engine: {value_text}", newline)


def without_key(data: Any, section: str, key: str) -> Any:
    """``data`` without ``section.key``, and without a section left empty (or null) by
    that: what an edit of that one key may change is compared on the rest."""
    if not isinstance(data, dict):
        return data
    mapping = data.get(section)
    rest = {k: v for k, v in data.items() if k != section}
    if isinstance(mapping, dict):
        mapping = {k: v for k, v in mapping.items() if k != key}
    return {**rest, section: mapping} if mapping else rest


def set_context_engine(text: str, name: str) -> str:
    """``text`` with ``context.engine`` set to ``name``, every other byte as it was.

    Raises :class:`ConfigEditError` (nothing is to be written) when the file
    is not valid YAML, has a shape the edit cannot make safely (an aliased
    ``context``, a top level that is not a block mapping), or when the edited
    text would read back differently anywhere but that key.
    """
    newline = "\r\n" if "\r\n" in text else "\n"
    edited = _edit(text, name, newline)
    try:
        before, after = parse_yaml(text) or {}, parse_yaml(edited)
    except YamlSyntaxError as exc:  # pragma: no cover - the splice keeps the syntax
        raise ConfigEditError(f"the edit would not be valid YAML ({exc})") from None
    context = after.get("context") if isinstance(after, dict) else None
    if not isinstance(context, dict) or context.get("engine") != name:
        raise ConfigEditError("the edit would not set context.engine")
    if without_key(before, "context", "engine") != without_key(after, "context", "engine"):
        raise ConfigEditError("the edit would change other keys")
    return edited

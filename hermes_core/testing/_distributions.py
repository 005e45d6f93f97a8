"""Writing throwaway installed distributions, for tests of discovery.

A distribution here is what pip leaves in ``site-packages``: a
``<name>-<version>.dist-info`` directory with ``METADATA`` and
``entry_points.txt``, next to the modules it ships. Put the directory on
``sys.path`` and ``importlib.metadata`` finds it like any installed package.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from pathlib import Path

__all__ = ["write_distribution"]


def write_distribution(
    site: Path,
    name: str,
    version: str = "1.0",
    *,
    entry_points: Mapping[str, Mapping[str, str]] | None = None,
    requires: Sequence[str] = (),
    summary: str = "",
    files: Mapping[str, str] | None = None,
) -> Path:
    """Write distribution ``name`` into the directory ``site`` and return its dist-info path.

    ``entry_points`` maps a group to ``{entry-point name: "module:attr"}``;
    ``requires`` become ``Requires-Dist`` lines; ``files`` maps paths relative
    to ``site`` (``"acme_engine/__init__.py"``) to their text.
    """
    site.mkdir(parents=True, exist_ok=True)
    folder = re.sub(r"[-_.]+", "_", name)
    dist_info = site / f"{folder}-{version}.dist-info"
    dist_info.mkdir()
    metadata = ["Metadata-Version: 2.1", f"Name: {name}", f"Version: {version}"]
    if summary:
        metadata.append(f"Summary: {summary}")
    metadata += [f"Requires-Dist: {requirement}" for requirement in requires]
    (dist_info / "METADATA").write_text("\n".join(metadata) + "\n", encoding="utf-8")
    if entry_points:
        lines = []
        for group, points in entry_points.items():
            lines.append(f"[{group}]")
            lines += [f"{point} = {value}" for point, value in points.items()]
            lines.append("")
        (dist_info / "entry_points.txt").write_text("\n".join(lines), encoding="utf-8")
    for relative, text in (files or {}).items():
        path = site / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    (dist_info / "RECORD").write_text("", encoding="utf-8")
    return dist_info

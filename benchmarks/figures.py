"""The figures a benchmark measured, written where the docs read them.

With ``--write-figures`` (or ``HERMES_CONTEXT_WRITE_DOCS=1``) a benchmark
records the figures the docs quote into ``docs/figures/<source>.json``, with
the date and the machine of the run and the command that measured them, then
writes the figures into the pages that quote them (a page quotes a figure as
``<!-- figure: <source>.<key> -->`` ... ``<!-- /figure -->``, written by
``docs/_ext/generated.py``). ``tests/test_docs_figures.py`` fails when a page
quotes a figure that no data file holds, or shows one that differs from it.
"""

from __future__ import annotations

import datetime
import importlib.util
import json
import os
import platform
import sys
from pathlib import Path

__all__ = ["FIGURES", "machine", "record", "wanted"]

#: Where the data files live (the docs include them).
FIGURES = Path(__file__).resolve().parents[1] / "docs" / "figures"


def wanted() -> bool:
    """Whether this run writes its figures (``--write-figures`` or the environment)."""
    return "--write-figures" in sys.argv or os.environ.get("HERMES_CONTEXT_WRITE_DOCS") == "1"


def machine() -> str:
    """What the figures were measured on: cores, memory, processor, Python."""
    memory = ""
    try:
        kib = int(Path("/proc/meminfo").read_text().split()[1])
        memory = f", {kib / 1024**2:.0f} GiB"
    except (OSError, ValueError, IndexError):
        pass
    processor = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                processor = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return (
        f"{os.cpu_count()} cores{memory}, {processor}, {platform.system()}, "
        f"Python {platform.python_version()}"
    )


def record(source: str, command: str, figures: dict[str, str]) -> Path | None:
    """Write ``figures`` (key -> the text a page shows) as ``docs/figures/<source>.json``
    when :func:`wanted`; the file's path, or None when not asked to write."""
    if not wanted():
        return None
    FIGURES.mkdir(exist_ok=True)
    path = FIGURES / f"{source}.json"
    data = {
        "measured": datetime.date.today().isoformat(),
        "machine": machine(),
        "command": command,
        "figures": dict(sorted(figures.items())),
    }
    path.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"figures written to {path}")
    _write_pages()
    return path


def _write_pages() -> None:
    """Write the new figures into every page that quotes them."""
    script = FIGURES.parent / "_ext" / "generated.py"
    spec = importlib.util.spec_from_file_location("docs_generated", script)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    for page in module.write_all():
        print(f"figures written into {page}")

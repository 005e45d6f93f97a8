"""mkdocs hook: the replay chart the home page shows, drawn by the build from a real replay.

``hermes-context replay`` of the bundled 300-turn sample through the default
engine, drawn with the command's own ``write_image``, becomes
``assets/replay.svg`` of the site: the picture cannot drift from what the
command draws. The replay runs in a throwaway ``$HERMES_HOME`` with defaults,
and a failure fails the build. ``docs/assets/replay.svg`` holds one such drawing
so the page shows the chart outside the site too (``python
docs/_ext/replay_chart.py`` draws it anew); the build draws its own.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

from mkdocs.structure.files import File, Files

#: Where the chart is in the site, as pages link it.
CHART = "assets/replay.svg"
#: The window of the replay: small enough that the chart shows passes.
WINDOW = 32_000


def draw() -> bytes:
    """The SVG of a replay of the bundled sample through the default engine."""
    from hermes_core import ContextHost, load_config
    from hermes_core._discovery import discover
    from hermes_core.cli.replay._chart import write_image
    from hermes_core.cli.replay._simulation import replay
    from hermes_core.testing._conversations import coding_session

    with tempfile.TemporaryDirectory(prefix="docs-replay-") as scratch:
        env = {"HERMES_HOME": scratch}
        config = load_config({"context": {"engine": "compressor"}}, env=env)
        host = ContextHost(discover(config), env=env)
        try:
            report, _ = replay(host, coding_session(), WINDOW)
        finally:
            host.close()
        path = Path(scratch) / "replay.svg"
        write_image(report, path)
        return path.read_bytes()


def on_files(files: Files, config: Any) -> Files:
    os.environ.setdefault("MPLBACKEND", "Agg")
    kept = files.get_file_from_path(CHART)
    if kept is not None:  # the copy for readers outside the site: the build draws afresh
        files.remove(kept)
    files.append(File.generated(config, CHART, content=draw()))
    return files


if __name__ == "__main__":
    os.environ.setdefault("MPLBACKEND", "Agg")
    target = Path(__file__).resolve().parents[1] / CHART
    target.write_bytes(draw())
    print(f"wrote {target}")

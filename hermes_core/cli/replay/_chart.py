"""The context size per model call as a picture: braille in the terminal, PNG or SVG on disk.

Both draw the same things: the tokens each request held, the window, the
engine's threshold, and a mark where each compaction pass ended.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import plotille

from hermes_core._errors import PlotUnavailableError
from hermes_core.cli.replay._simulation import ReplayReport

__all__ = [
    "IMAGE_SUFFIXES",
    "MIN_COLUMNS",
    "PlotUnavailableError",
    "chart_for_terminal",
    "image_target_problem",
    "terminal_chart",
    "write_image",
    "write_overlay",
]

#: File endings ``--plot`` writes.
IMAGE_SUFFIXES = (".png", ".svg")


def image_target_problem(path: Path) -> str | None:
    """Why an image cannot be written to ``path``, said before any work is done: its
    ending, a folder that does not exist (none is created), a folder or file that cannot be
    written, matplotlib missing. None when it can."""
    import importlib.util
    import os

    if path.suffix.lower() not in IMAGE_SUFFIXES:
        return f"--plot {path}: write a .png or .svg file"
    folder = path.parent
    if not folder.is_dir():
        return f"--plot {path}: the folder {folder} does not exist; create it or choose another"
    if path.is_dir():
        return f"--plot {path}: that is a folder; name a file in it, such as {path / 'chart.svg'}"
    if not os.access(folder, os.W_OK | os.X_OK) or (path.exists() and not os.access(path, os.W_OK)):
        return f"--plot {path}: cannot write there; choose a path you can write"
    if importlib.util.find_spec("matplotlib") is None:
        return 'drawing an image needs matplotlib: pip install "hermes-context[plot]"'
    return None


#: Columns under which no chart is drawn: its plot area would be too narrow to read.
MIN_COLUMNS = 60
#: The widest plot area drawn, in columns (labels come on top of it).
PLOT_WIDTH = 72


def chart_for_terminal(report: ReplayReport, columns: int) -> str:
    """The chart, every line at most ``columns`` wide: the plot area shrinks to leave room for
    the labels; under :data:`MIN_COLUMNS` a sentence saying so instead of a chart."""
    if columns < MIN_COLUMNS:
        return (
            f"(no chart: it needs {MIN_COLUMNS} columns and this terminal has {columns}; "
            "widen it, or draw it into a file with --plot chart.png)"
        )
    width = PLOT_WIDTH
    chart = terminal_chart(report, width)
    widest = max(len(line) for line in chart.splitlines())
    if widest > columns:  # the labels' width depends on the figures: measure, then shrink
        chart = terminal_chart(report, width - (widest - columns))
    return chart


def terminal_chart(report: ReplayReport, width: int = PLOT_WIDTH, height: int = 16) -> str:
    """The chart as text (braille dots; ``=`` the window, ``-`` the threshold, ``x`` a pass),
    its plot area ``width`` columns wide."""
    turns = [turn.number for turn in report.turns] or [0]
    sent = [turn.sent_tokens for turn in report.turns] or [0]
    top = max(report.context_length, max(sent)) * 1.05
    figure = plotille.Figure()
    figure.width, figure.height = width, height
    figure.with_colors = False
    figure.set_x_limits(min_=0, max_=max(turns))
    figure.set_y_limits(min_=0, max_=top)
    figure.x_label, figure.y_label = "model call", "tokens"
    figure.x_ticks_fkt = lambda low, _high: f"{low:,.0f}"
    figure.y_ticks_fkt = lambda low, _high: f"{low:,.0f}"
    span = range(0, max(turns) + 1, max(1, max(turns) // width))
    figure.scatter(list(span), [report.context_length] * len(span), marker="=", label="window (=)")
    if 0 < report.threshold_tokens < report.context_length:
        figure.scatter(
            list(span), [report.threshold_tokens] * len(span), marker="-", label="threshold (-)"
        )
    figure.plot(turns, sent, label="tokens sent per model call")
    if report.passes:
        figure.scatter(*report.pass_points(), marker="x", label="compaction pass, size after (x)")
    return str(figure.show(legend=True))


def write_image(report: ReplayReport, path: Path) -> None:
    """Draw the chart into ``path`` (``.png`` or ``.svg``) with matplotlib.

    Raises :class:`PlotUnavailableError` when matplotlib is not installed
    (it comes with ``pip install "hermes-context[plot]"``) and ValueError for
    another file ending.
    """

    def draw(axes: Any) -> None:
        turns = [turn.number for turn in report.turns]
        axes.plot(turns, [t.sent_tokens for t in report.turns], label="tokens sent", lw=1.4)
        axes.plot(
            turns, [t.full_tokens for t in report.turns], label="without engine", lw=1, ls=":"
        )
        axes.axhline(report.context_length, color="crimson", lw=1.2, label="window")
        if 0 < report.threshold_tokens < report.context_length:
            axes.axhline(report.threshold_tokens, color="orange", lw=1, ls="--", label="threshold")
        if report.passes:
            axes.scatter(
                *report.pass_points(),
                marker="v",
                color="black",
                zorder=3,
                label="compaction pass (size after)",
            )
        axes.set_ylim(0, max(report.context_length, report.largest_request) * 1.15)
        axes.set_ylabel("tokens")
        axes.set_title(f"{report.engine}: context per model call, window {report.context_length:,}")

    _draw_into(path, draw)


def write_overlay(series: dict[str, list[int]], window: int, budget: int, path: Path) -> None:
    """One chart of several engines' requests over one conversation: tokens per model call,
    each engine a line, with the window and the request budget (``.png`` or ``.svg``)."""

    def draw(axes: Any) -> None:
        for engine, tokens in series.items():
            axes.plot(range(1, len(tokens) + 1), tokens, label=engine, lw=1.3)
        axes.axhline(window, color="crimson", lw=1.2, label="window")
        axes.axhline(budget, color="gray", lw=1, ls="--", label="request budget")
        top = max([window, *(max(t, default=0) for t in series.values())])
        axes.set_ylim(0, top * 1.15)
        axes.set_ylabel("tokens per request")
        axes.set_title(f"engines side by side, window {window:,}")

    _draw_into(path, draw)


def _draw_into(path: Path, draw: Callable[[Any], None]) -> None:
    """A chart of model calls drawn by ``draw`` on its axes, saved to ``path``."""
    if path.suffix.lower() not in IMAGE_SUFFIXES:
        raise ValueError(f"{path}: --plot writes .png or .svg, not {path.suffix or 'no ending'!r}")
    try:
        import matplotlib

        matplotlib.use("Agg")  # no display needed
        from matplotlib import pyplot
    except ImportError:
        raise PlotUnavailableError(
            'drawing an image needs matplotlib: pip install "hermes-context[plot]"'
        ) from None
    figure, axes = pyplot.subplots(figsize=(10, 4.5), dpi=120)
    try:
        draw(axes)
        axes.set_xlabel("model call")
        axes.legend(loc="upper left", fontsize="small")
        axes.grid(alpha=0.3)
        figure.tight_layout()
        figure.savefig(path)
    finally:
        pyplot.close(figure)

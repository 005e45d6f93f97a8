"""``hermes-context replay``: a conversation through ContextHost, as an agent loop drives it."""

from __future__ import annotations

import json
import tempfile
import textwrap
from pathlib import Path
from typing import Any

import click
from rich.padding import Padding
from rich.progress import Progress
from rich.table import Table
from rich.text import Text

from hermes_core._discovery import discover
from hermes_core._errors import HermesError
from hermes_core._tokens import estimate_tokens
from hermes_core.cli._common import USE_CONFIG_HELP, engine_config, load, not_installed
from hermes_core.cli._output import cell, emit_json, fail, out, say
from hermes_core.cli._sessions import HERMES_HOME_HELP, SAMPLE_HELP, store_home
from hermes_core.cli.replay._chart import (
    PlotUnavailableError,
    chart_for_terminal,
    image_target_problem,
    write_image,
)
from hermes_core.cli.replay._hermes import replay_hermes
from hermes_core.cli.replay._simulation import ReplayReport, replay
from hermes_core.host import ContextHost
from hermes_core.testing._conversations import coding_session

__all__ = ["command"]

#: How many search hits ``--ask`` shows, and how long a shown text may be.
_HITS, _TEXT = 3, 110
#: The window the sample store's session ran at in Hermes (its replay's default).
SAMPLE_WINDOW = 64_000
#: How many passes the table shows (the latest).
_ROWS = 12


def _window_asked(ctx: click.Context, context_length: int, sample: bool) -> int | None:
    """The window a Hermes-session replay was given: --context-length, the sample's own,
    or None (config.yaml's, else the default)."""
    if _given(ctx, "context_length"):
        return context_length
    return SAMPLE_WINDOW if sample else None


def _read_jsonl(path: Path) -> list[dict[str, Any]]:
    """One OpenAI message per line; every problem is reported as ``FILE:LINE``."""
    messages = []
    for number, raw in enumerate(path.read_bytes().splitlines(), start=1):
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            fail(
                f"{path}:{number}: not UTF-8 (byte {raw[exc.start]:#04x} at column "
                f"{exc.start + 1}); save the file as UTF-8"
            )
        if not line.strip():
            continue
        try:
            message = json.loads(line)
        except ValueError as exc:
            fail(f"{path}:{number}: not a JSON object ({exc}); one OpenAI message per line")
        except RecursionError:
            fail(f"{path}:{number}: nests deeper than a message can; one OpenAI message per line")
        if not isinstance(message, dict) or "role" not in message:
            fail(f"{path}:{number}: expected an OpenAI message object with a 'role'")
        messages.append(message)
    if not messages:
        fail(f"{path}: no messages; one OpenAI message per line")
    return messages


def _readable(text: str) -> str:
    """``text`` as UTF-8 can hold it: an argument the terminal sent in another encoding
    arrives with lone surrogates (Python's surrogateescape), which become U+FFFD."""
    try:
        return text.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    except UnicodeEncodeError:  # a surrogate no byte stands for
        return text.encode("utf-8", "replace").decode("utf-8")


#: The widest the request's lines are drawn, however wide the terminal: read, not scanned.
_WIDTH = 120


def _given(ctx: click.Context, name: str) -> bool:
    """Whether option ``name`` was given on the command line (not its default)."""
    return ctx.get_parameter_source(name) == click.core.ParameterSource.COMMANDLINE


def _key(message: dict[str, Any]) -> str:
    return json.dumps(message, sort_keys=True, default=str)


def _said(message: dict[str, Any]) -> str:
    """A message as a person reads it: its text, or the tools it calls with their arguments."""
    if message.get("content"):
        return _short(message["content"])
    calls = []
    for call in message.get("tool_calls") or []:
        function = call.get("function", {}) if isinstance(call, dict) else {}
        try:
            arguments = json.loads(function.get("arguments") or "{}")
        except (TypeError, ValueError):
            arguments = function.get("arguments")
        shown = (
            ", ".join(f"{key}={value!r}" for key, value in arguments.items())
            if isinstance(arguments, dict)
            else str(arguments)
        )
        calls.append(f"{function.get('name', '?')}({shown})")
    return _short("calls " + "; ".join(calls)) if calls else "(no text)"


def _short(text: object) -> str:
    """One line of at most ``_TEXT`` characters, cut at a word."""
    flat = " ".join(str(text).split())
    return textwrap.shorten(flat, _TEXT, placeholder=" …") if flat else "(no text)"


@click.command("replay")
@click.argument(
    "file", required=False, type=click.Path(exists=True, dir_okay=False, path_type=Path)
)
@click.option("--engine", "engine_name", help="Engine to replay with (default: the selected one).")
@click.option(
    "--context-length",
    default=32_000,
    show_default=True,
    type=click.IntRange(min=1),
    help="Model window, in tokens.",
)
@click.option("--ask", help="One more user message: show what the model would receive.")
@click.option(
    "--plot",
    "plot_path",
    type=click.Path(dir_okay=False, path_type=Path),
    help='Also draw the chart into this .png or .svg file (needs "hermes-context[plot]").',
)
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@click.option("--use-config", is_flag=True, help=USE_CONFIG_HELP)
@click.option(
    "--hermes-session",
    "hermes_sessions",
    multiple=True,
    help="Replay this session of your Hermes Agent store (hermes-context sessions lists "
    "them) through every installed engine, side by side. Repeatable.",
)
@click.option(
    "--hermes-sessions",
    "latest",
    type=click.IntRange(min=1),
    help="Replay the latest N sessions of your Hermes Agent store.",
)
@click.option(
    "--engines", help="With --hermes-session: the engines to compare (a,b,c; default: all)."
)
@click.option(
    "--hermes-home", type=click.Path(file_okay=False, path_type=Path), help=HERMES_HOME_HELP
)
@click.option(
    "--include-text",
    is_flag=True,
    help="With --hermes-session --json: include the probes' text (default: positions only).",
)
@click.option("--sample", is_flag=True, help=f"With --hermes-session(s): {SAMPLE_HELP}")
@click.pass_context
def command(
    ctx: click.Context,
    file: Path | None,
    engine_name: str | None,
    context_length: int,
    ask: str | None,
    plot_path: Path | None,
    as_json: bool,
    use_config: bool,
    hermes_sessions: tuple[str, ...] = (),
    latest: int | None = None,
    engines: str | None = None,
    hermes_home: Path | None = None,
    include_text: bool = False,
    sample: bool = False,
) -> None:
    """Replay FILE (JSONL, one OpenAI message per line; default: a bundled sample of 300 turns).

    Shows the context sent at each model call against the window, every
    compaction pass, and what the engine saved. Exits 1 when a request did
    not fit the window. Works offline: no LLM unless one is configured. The
    engine runs in a temporary $HERMES_HOME with its default settings (the
    compressor's are read from your compression: section; --use-config reads
    every engine's from your config.yaml), so a store such as lcm's is never
    your own history.
    """
    if sample and not (hermes_sessions or latest):
        fail("--sample goes with --hermes-session ID or --hermes-sessions N")
    if plot_path is not None and (problem := image_target_problem(plot_path)):
        fail(problem)  # before the replay, not after it
    if hermes_sessions or latest:
        if file is not None:
            fail("replay either FILE or --hermes-session, not both")
        config = load(ctx)
        replay_hermes(
            config,
            store_home(ctx, hermes_home, sample),
            hermes_sessions,
            latest,
            engines,
            context_length
            if _given(ctx, "context_length")
            else (SAMPLE_WINDOW if sample else None),
            as_json,
            include_text,
            use_config,
            plot_path,
        )
        return
    messages = _read_jsonl(file) if file else coding_session()
    config = load(ctx)
    with tempfile.TemporaryDirectory() as scratch:
        try:
            if engine_name:  # the engine named must be the one replayed: no silent fallback
                config = engine_config(config, engine_name)
            registry = discover(config)
            if engine_name and registry.get(engine_name) is None:
                fail(f"--engine {engine_name}: {not_installed(engine_name, registry)}")
            # engines run in a throwaway $HERMES_HOME, with their default settings or yours
            scratch_config = config.isolated(Path(scratch), settings=use_config)
            host = ContextHost(registry.with_config(scratch_config), env=scratch_config.env)
        except HermesError as exc:
            chosen = f"--engine {engine_name}" if engine_name else f"engine {config.engine.name}"
            fail(f"{chosen}: {exc}")
        with Progress(transient=True, console=out, disable=as_json) as progress:
            task = progress.add_task(f"replaying with {host.engine_name}", total=len(messages))
            report, history = replay(host, messages, context_length, lambda: progress.advance(task))
        answer = _ask(host, history, _readable(ask), context_length) if ask else None
    if plot_path is not None:
        try:
            write_image(report, plot_path)
        except PlotUnavailableError as exc:
            fail(str(exc))
        except OSError as exc:  # the folder went away or filled up during the replay
            fail(f"--plot {plot_path}: {exc.strerror or exc}")
    if as_json:
        emit_json(report.as_dict() | ({"ask": answer} if answer else {}))
    else:
        _show(report)
        if answer:
            _show_ask(answer, context_length)
        if plot_path is not None:
            say("chart written to {path}", path=plot_path)
    if report.failed_passes:
        ctx.exit(1)  # an engine that fails its passes fails its replay
    if report.over_window:
        if not as_json:
            first = report.over_window[0]
            say(
                "[bold red]{engine} did not keep the conversation inside the window:[/] "
                "{over} of {turns} requests were over {budget:,} tokens, the window less "
                "{reserve:,} for the reply (the first at model call {first}, the largest "
                "{largest:,} = {share:.0%}); a provider would reject them or cut the answer "
                "short.",
                engine=host.engine_name,
                over=len(report.over_window),
                turns=len(report.turns),
                budget=report.input_budget,
                reserve=report.reply_reserve_tokens,
                first=first.number,
                largest=report.largest_request,
                share=report.largest_request / context_length,
            )
        ctx.exit(1)


def _show(report: ReplayReport) -> None:
    figures = report.figures()
    say(
        "engine [bold]{engine}[/]: window {window:,} tokens ({reserve:,} kept for the reply), "
        "threshold {threshold:,}, summaries by {summarizer}",
        engine=report.engine,
        window=report.context_length,
        reserve=report.reply_reserve_tokens,
        threshold=report.threshold_tokens,
        summarizer=report.summarizer,
    )
    out.print(Text(chart_for_terminal(report, out.width)))
    if report.passes:
        table = Table(title="compaction passes", show_edge=False)
        for column in ("model call", "tokens before", "tokens after", "saved", "duration"):
            table.add_column(column, justify="right")
        table.add_column("usage before")
        shown = report.passes if len(report.passes) <= _ROWS else report.passes[-_ROWS:]
        if len(shown) < len(report.passes):
            table.caption = f"the last {_ROWS} of {len(report.passes)} passes; --json lists all"
        for p in shown:
            table.add_row(
                str(p.turn),
                f"{p.tokens_before:,}",
                f"{p.tokens_after:,}",
                f"{1 - p.tokens_after / max(1, p.tokens_before):.0%}",
                f"{p.seconds * 1000:.0f} ms",
                f"{p.tokens_before / report.context_length:.0%} of window",
            )
        out.print(table)
    say(
        "engine {engine}: {turns} turns, {messages} messages replayed, {passes} compaction "
        "passes\ntokens sent: {with_engine:,} with the engine, {without:,} without ({saved:.0%} "
        "saved); largest request {largest:,} tokens ({largest_share:.0%} of the window, "
        "{left:,} left for the reply); the agent's context at the end {final_messages} messages / "
        "{final_tokens:,} tokens",
        engine=report.engine,
        turns=len(report.turns),
        messages=report.messages,
        passes=len(report.passes),
        with_engine=figures["tokens_with_engine"],
        without=figures["tokens_without_engine"],
        saved=figures["saved_share"],
        largest=report.largest_request,
        largest_share=figures["largest_request_share_of_window"],
        left=figures["tokens_left_for_reply"],
        final_messages=report.final_messages,
        final_tokens=report.final_tokens,
    )
    if report.failed_passes:
        say(
            "[bold red]{engine}: {failed} compaction passes failed[/] (the engine raised or ran "
            "out of time; the host kept the history as it was), the first after model call "
            "{first}; run with --debug for the engine's traceback",
            engine=report.engine,
            failed=len(report.failed_passes),
            first=report.failed_passes[0],
        )
    if report.passes_backed_off:
        say(
            "[yellow]{engine}: {backed_off} passes did not help and backed the next ones off[/] "
            "({held} passes the engine asked for were held; compression.min_freed_share and "
            "min_turns_between_passes say when)",
            engine=report.engine,
            backed_off=report.passes_backed_off,
            held=report.passes_held,
        )
    if report.preparations:
        say(
            "{engine}: summaries prepared ahead {prepared} times; at the passes "
            "{ready} summaries were ready (no wait) and {not_ready} were not (the pass "
            "waited for the summariser)",
            engine=report.engine,
            prepared=report.preparations,
            ready=report.summaries_ready,
            not_ready=report.summaries_not_ready,
        )
    if report.standing_instructions:
        say(
            "standing instructions carried into every request: {count}",
            count=len(report.standing_instructions),
        )
        for text in report.standing_instructions[:_ROWS]:
            say("  - {text}", text=text)


#: How long --ask waits for an engine's background embeddings before it asks.
EMBEDDINGS_WAIT_SECONDS = 60.0


def _ranking(host: ContextHost) -> str | None:
    """How the engine ranks what it recalls, for the reader: by meaning (with how many of
    its messages have vectors) or by keywords and why; None for an engine that says
    nothing of it."""
    flush = getattr(host.engine, "flush_embeddings", None)
    ready = flush(EMBEDDINGS_WAIT_SECONDS) if callable(flush) else True
    shown = host.status().get("embeddings")
    if not isinstance(shown, dict):
        return None
    if not shown.get("model"):
        return f"by keywords only: {shown.get('why') or 'no embedding model'}"
    vectors, messages = shown.get("vectors", 0), shown.get("messages", 0)
    if not ready:
        return (
            f"by meaning and keywords, but only {vectors:,} of {messages:,} messages had "
            f"vectors after {EMBEDDINGS_WAIT_SECONDS:g} s: the rest by keywords"
        )
    return f"by meaning ({shown['model']}, {vectors:,} of {messages:,} messages) and keywords"


def _ask(host: ContextHost, history: list[dict[str, Any]], ask: str, window: int) -> dict[str, Any]:
    # the engine's background work done first, as it would be by the agent's next turn
    ranking = _ranking(host)
    # search first: once the question is part of the conversation it would find itself
    tools = [entry["function"]["name"] for entry in host.tool_schemas()]
    search = next((t for t in tools if t.endswith(("grep", "search"))), None)
    found = json.loads(host.handle_tool_call(search, {"query": ask})) if search else None
    incoming = {"role": "user", "content": ask}
    request = host.select_context(
        [*history, incoming],
        conversation_messages=history,
        incoming_message=incoming,
        budget_tokens=host.input_budget_tokens,
    )
    tokens = estimate_tokens(request)
    # what the engine brought back that the agent no longer holds (stored turns, summaries)
    held = {_key(message) for message in [*history, incoming]}
    return {
        "request": request,
        "recalled": sum(1 for message in request if _key(message) not in held),
        "agent_context_messages": len(history),
        "request_tokens": tokens,
        "tokens_left_for_reply": window - tokens,
        "reply_reserve_tokens": host.reply_reserve_tokens,
        "search_tool": search,
        "found": found,
        "ranking": ranking,
    }


def _show_ask(answer: dict[str, Any], window: int) -> None:
    request = answer["request"]
    say(
        "\n[bold]what the model would receive[/]: {count} messages, {tokens:,} tokens "
        "({share:.0%} of the window, {left:,} left for the reply); the last ones:",
        count=len(request),
        tokens=answer["request_tokens"],
        share=answer["request_tokens"] / window,
        left=answer["tokens_left_for_reply"],
    )
    say(
        "  the agent holds {held} messages after its compactions; {recalled} here come "
        "from the engine's store",
        held=answer["agent_context_messages"],
        recalled=answer["recalled"],
    )
    if answer.get("ranking"):
        say("  the engine ranked what it recalls {ranking}", ranking=answer["ranking"])
    rows = Table.grid(padding=(0, 1))  # a wrapped line keeps its column
    rows.add_column(justify="right", style="bold")
    rows.add_column()
    for message in request[-4:]:
        rows.add_row(cell(str(message.get("role", "?")) + ":"), cell(_said(message)))
    out.print(Padding(rows, (0, 0, 0, 2)), width=min(out.width, _WIDTH))
    found = answer.get("found")
    if not answer.get("search_tool") or not isinstance(found, dict):
        return
    hits = [hit for hit in found.get("results", []) if isinstance(hit, dict)][:_HITS]
    say(
        "[bold]{tool}[/] finds {count} matches; the first {shown}:",
        tool=answer["search_tool"],
        count=len(found.get("results", [])),
        shown=len(hits),
    )
    for hit in hits:
        where = f" (folded into {hit['folded_into']})" if hit.get("folded_into") else ""
        say(
            "  {id}{where}: {snippet}",
            id=hit.get("id", "?"),
            where=where,
            snippet=_short(hit.get("snippet", "")),
        )

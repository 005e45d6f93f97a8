"""``hermes-context replay``: a conversation through ContextHost, as an agent loop drives it."""

from __future__ import annotations

import copy
import json
import tempfile
import time
from pathlib import Path
from typing import Any

import click
from rich.progress import Progress
from rich.table import Table

from hermes_core.cli.common import load
from hermes_core.cli.output import emit_json, fail, out
from hermes_core.cli.sample import sample_session
from hermes_core.config import load_config
from hermes_core.host import ContextHost
from hermes_core.registry import EngineRegistry
from hermes_core.tokens import estimate_tokens

__all__ = ["command"]


def _read_jsonl(path: Path) -> list[dict[str, Any]]:
    messages = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            message = json.loads(line)
        except ValueError as exc:
            fail(f"{path}:{number}: not a JSON object ({exc}); one OpenAI message per line")
        if not isinstance(message, dict) or "role" not in message:
            fail(f"{path}:{number}: expected an OpenAI message object with a 'role'")
        messages.append(message)
    if not messages:
        fail(f"{path}: no messages; one OpenAI message per line")
    return messages


def _turn_ends(message: dict[str, Any]) -> bool:
    return message.get("role") == "assistant" and not message.get("tool_calls")


@click.command("replay")
@click.argument(
    "file", required=False, type=click.Path(exists=True, dir_okay=False, path_type=Path)
)
@click.option("--engine", "engine_name", help="Engine to replay with (default: the selected one).")
@click.option(
    "--context-length", default=32_000, show_default=True, help="Model window, in tokens."
)
@click.option("--ask", help="One more user message: show what the model would receive.")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@click.pass_context
def command(
    ctx: click.Context,
    file: Path | None,
    engine_name: str | None,
    context_length: int,
    ask: str | None,
    as_json: bool,
) -> None:
    """Replay FILE (JSONL, one OpenAI message per line; default: a bundled sample of 300 turns).

    Prints a timeline of compaction passes and a summary. Works offline: no LLM
    unless one is configured; a store such as lcm's is kept in a temporary
    directory so your own history is never touched.
    """
    messages = _read_jsonl(file) if file else sample_session()
    config = load(ctx)
    data = copy.deepcopy(dict(config.data))
    if engine_name:
        data.setdefault("context", {})["engine"] = engine_name
    with tempfile.TemporaryDirectory() as scratch:
        data.setdefault("lcm", {})["database"] = str(Path(scratch) / "replay.db")
        env = dict(config.env)
        host = ContextHost(EngineRegistry.discover(load_config(data, env=env)), env=env)
        if host.activation.fallback is not None and not as_json:
            out.print(f"[yellow]fallback:[/] {host.activation.fallback}", highlight=False)
        report = _replay(host, messages, context_length, ask, quiet=as_json)
        if as_json:
            emit_json(report)


def _replay(
    host: ContextHost, source: list[dict[str, Any]], window: int, ask: str | None, quiet: bool
) -> dict[str, Any]:
    host.update_model("replay-model", window)
    host.start_session("replay")
    history: list[dict[str, Any]] = []
    passes = []
    turns = 0
    with Progress(transient=True, console=out, disable=quiet) as progress:
        task = progress.add_task(f"replaying with {host.engine_name}", total=len(source))
        for message in source:
            history.append(message)
            progress.advance(task)
            if not _turn_ends(message):
                continue
            turns += 1
            tokens = estimate_tokens(history)
            host.record_usage(
                {"prompt_tokens": tokens, "completion_tokens": 0, "total_tokens": tokens}
            )
            if host.should_compress(tokens):
                start = time.perf_counter()
                history = host.compress(history, current_tokens=tokens)
                status = host.status()
                passes.append(
                    (turns, tokens, estimate_tokens(history), time.perf_counter() - start, status)
                )
            host.turn_complete(history, None, turn_id=f"turn-{turns}")
    final = estimate_tokens(history)
    report: dict[str, Any] = {
        "engine": host.engine_name,
        "turns": turns,
        "messages": len(source),
        "context_length": window,
        "passes": [
            {
                "turn": turn,
                "tokens_before": before,
                "tokens_after": after,
                "seconds": round(seconds, 4),
                "compression_count": status.get("compression_count"),
            }
            for turn, before, after, seconds, status in passes
        ],
        "final_messages": len(history),
        "final_tokens": final,
        "status": host.status(),
    }
    if quiet:
        if ask:
            report["ask"] = _ask(host, history, ask, window, quiet=True)
        return report
    table = Table(title="compaction passes", show_edge=False)
    for column in ("turn", "tokens before", "tokens after", "duration", "engine status"):
        table.add_column(column)
    for turn, before, after, seconds, status in passes:
        table.add_row(
            str(turn),
            f"{before:,}",
            f"{after:,}",
            f"{seconds * 1000:.0f} ms",
            f"count={status.get('compression_count')} usage={status.get('usage_percent', 0):.0f}%",
        )
    out.print(table)
    out.print(
        f"engine [bold]{host.engine_name}[/]: {turns} turns, {len(source)} messages replayed, "
        f"{len(passes)} compaction passes, final context {len(history)} messages / {final:,} "
        f"tokens ({final * 100 // max(1, window)}% of {window:,})",
        highlight=False,
    )
    if ask:
        _ask(host, history, ask, window, quiet=False)
    return report


def _ask(
    host: ContextHost, history: list[dict[str, Any]], ask: str, window: int, quiet: bool
) -> dict[str, Any]:
    incoming = {"role": "user", "content": ask}
    request = host.select_context(
        [*history, incoming],
        conversation_messages=history,
        incoming_message=incoming,
        budget_tokens=window,
    )
    tools = [entry["function"]["name"] for entry in host.tool_schemas()]
    search = next((t for t in tools if t.endswith(("grep", "search"))), None)
    found = json.loads(host.handle_tool_call(search, {"query": ask})) if search else None
    if quiet:
        return {"request": request, "search_tool": search, "found": found}
    table = Table(title="what the model would receive", show_edge=False)
    table.add_column("#")
    table.add_column("role")
    table.add_column("content", overflow="fold")
    for index, message in enumerate(request):
        text = message.get("content") or json.dumps(message.get("tool_calls", ""))[:120]
        table.add_row(str(index), str(message.get("role")), str(text)[:160])
    out.print(table)
    if search:
        out.print(f"[bold]{search}[/]({ask!r}) ->", highlight=False)
        out.print_json(json.dumps(found))
    return {"request": request, "search_tool": search, "found": found}

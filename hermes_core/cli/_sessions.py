"""``hermes-context sessions``: the conversations in your Hermes Agent home, every profile."""

from __future__ import annotations

import datetime
from pathlib import Path

import click
from rich.table import Table

from hermes_core._redaction import redact
from hermes_core.cli._common import load
from hermes_core.cli._output import cell, emit_json, err, fail, out, say
from hermes_core.hermes_agent.sessions import SessionStoreError, list_sessions

__all__ = ["HERMES_HOME_HELP", "SAMPLE_HELP", "command", "store_home"]

HERMES_HOME_HELP = "Hermes Agent's home (default: $HERMES_HOME, else ~/.hermes)."
SAMPLE_HELP = (
    "Read the sample store that ships with hermes-context (written by Hermes Agent 0.19.0 "
    "running lcm) instead of yours."
)


def store_home(ctx: click.Context, hermes_home: Path | None, sample: bool) -> Path:
    """The home whose store a command reads: the sample's, the one named, or the config's."""
    if sample and hermes_home is not None:
        fail("--sample or --hermes-home, not both")
    if sample:
        from hermes_core.hermes_agent.sessions.sample import sample_home

        return sample_home()
    return hermes_home if hermes_home is not None else load(ctx).home


@click.command("sessions")
@click.option(
    "--hermes-home", type=click.Path(file_okay=False, path_type=Path), help=HERMES_HOME_HELP
)
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@click.option("--sample", is_flag=True, help=SAMPLE_HELP)
@click.pass_context
def command(ctx: click.Context, hermes_home: Path | None, as_json: bool, sample: bool) -> None:
    """List the conversations Hermes Agent stored (state.db, every profile), read-only."""
    home = store_home(ctx, hermes_home, sample)
    skipped: list[str] = []
    try:
        sessions = list_sessions(home, skipped)
    except SessionStoreError as exc:
        fail(str(exc))
    for line in skipped:  # on stderr: --json output stays one document
        say("[yellow]skipped[/] {line}", to=err, line=line)
    if as_json:
        emit_json([session.as_dict() for session in sessions])
        return
    if not sessions:
        say("no Hermes sessions in {home} (state.db, profiles/*/state.db)", home=home)
        return
    table = Table(show_edge=False, pad_edge=False)
    for column in ("ID", "PROFILE", "TITLE", "STARTED", "MESSAGES", "MODEL", "COMPACTIONS"):
        table.add_column(column, overflow="fold")
    for session in sessions:
        started = datetime.datetime.fromtimestamp(session.started_at).strftime("%Y-%m-%d %H:%M")
        table.add_row(
            cell(session.id),
            cell(session.profile),
            cell(redact(session.title or "")),
            started,
            f"{session.messages:,}",
            cell(session.model or "?"),
            str(session.compactions),
        )
    out.print(table)
    say(
        "\nreplay one through every installed engine: hermes-context replay --hermes-session "
        "ID{sample}",
        sample=" --sample" if sample else "",
    )

"""``hermes-context lcm ...``: commands of the LCM store (declared as a hermes_context.commands
entry point, so the ``hermes-context`` command line offers them once this distribution is in)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from hermes_core import load_config

__all__ = ["command"]


@click.group("lcm")
def command() -> None:
    """The LCM store: its embedding progress, and moving it to a PostgreSQL server."""


@command.command("status")
@click.pass_context
def status(ctx: click.Context) -> None:
    """Where the store is, how many messages it holds, and relevance by meaning: the model
    (or why none), vectors stored out of messages stored, the backlog, the rate this
    machine embeds at (measured on the backlog) and the time left."""
    from hermes_engine_lcm.settings import LCMSettings, embedding_setting
    from hermes_engine_lcm.store.open import open_store

    config = load_config(ctx.obj.get("config_path") if ctx.obj else None)
    settings = LCMSettings.from_config(config.data, config)
    if settings.server_url(config.env) is None:
        path = settings.database_path(config.home)
        if not path.exists():
            click.echo(f"store: none yet at {path} (an agent running lcm makes it)")
            return
    database = open_store(settings, config.home, config.env)
    try:
        click.echo(f"store: {database.location} ({database.backend})")
        setting = embedding_setting(settings, config.data, config, config.env)
        _embedding_lines(database, setting, config.home)
    finally:
        database.close()


def _embedding_lines(database: Any, setting: Any, home: Path) -> None:
    from hermes_engine_lcm.relevance.models import choose_model, usable_encoder
    from hermes_engine_lcm.relevance.progress import progress

    model, why = choose_model(setting, home)
    if model is None:
        click.echo(f"relevance by meaning: {why}; keywords rank")
        return
    encoder, error = usable_encoder(model, home)
    if encoder is None:
        click.echo(f"relevance by meaning: off: {error}; keywords rank")
        return
    done = progress(database, encoder)
    click.echo(f"relevance by meaning: {model} ({why})")
    click.echo(f"vectors: {done.vectors:,} of {done.messages:,} messages stored")
    if not done.backlog:
        click.echo("backlog: none; every stored message ranks by meaning")
        return
    rate = f"{done.per_second:,.0f} messages a second here" if done.per_second else "unknown"
    left = f"about {_duration(done.seconds_left)}" if done.seconds_left is not None else "unknown"
    click.echo(f"backlog: {done.backlog:,} messages (rank by keywords until embedded)")
    click.echo(f"rate: {rate}; time left: {left}, while an agent runs lcm")


def _duration(seconds: float) -> str:
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 5_400:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3_600:.1f} h"


@command.command("migrate")
@click.option(
    "--to",
    "url",
    default=None,
    help="postgresql:// URL of an empty database (default: the one config.yaml names, "
    "or the variable lcm.database_url_env names, HERMES_LCM_DATABASE_URL by default; "
    "keeping the password out of the command line).",
)
@click.option(
    "--from",
    "source",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="The SQLite store (default: lcm.database, else $HERMES_HOME/lcm/lcm.db).",
)
@click.pass_context
def migrate(ctx: click.Context, url: str | None, source: Path | None) -> None:
    """Copy the SQLite store into a PostgreSQL database, whole, in one transaction.

    Stop the agents writing to the SQLite file first; afterwards point them at the
    server (lcm.database_url, or the environment variable).
    """
    from hermes_engine_lcm.settings import LCMSettings

    config = load_config(ctx.obj.get("config_path") if ctx.obj else None)
    settings = LCMSettings.from_config(config.data, config)
    url = url or settings.server_url(config.env)
    if not url or not url.startswith(("postgresql://", "postgres://")):
        raise click.UsageError(
            f"name the target: --to postgresql://user@host:5432/dbname, or set "
            f"${settings.database_url_env}"
        )
    source = source or settings.database_path(config.home)
    try:
        from hermes_engine_lcm.store.postgres.database import PostgresDatabase
        from hermes_engine_lcm.store.transfer import TransferError, transfer
    except ImportError:
        raise click.ClickException(
            "psycopg is not installed: pip install 'hermes-engine-lcm[postgres]'"
        ) from None
    target = PostgresDatabase(url, pool_size=1)
    try:
        report = transfer(source, target)
    except TransferError as exc:
        raise click.ClickException(str(exc)) from None
    finally:
        target.close()
    counts = ", ".join(f"{count:,} {table}" for table, count in report.rows.items())
    click.echo(f"moved {source} to {target.location} in {report.seconds:.1f} s: {counts}")
    click.echo(
        "next: point every worker at it (lcm.database_url, or the variable "
        f"{settings.database_url_env}); the SQLite file is left as it was"
    )

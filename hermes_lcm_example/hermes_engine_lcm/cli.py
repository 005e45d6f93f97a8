"""``hermes-context lcm ...``: commands of the LCM store (declared as a hermes_context.commands
entry point, so the ``hermes-context`` command line offers them once this distribution is in)."""

from __future__ import annotations

from pathlib import Path

import click

from hermes_core import load_config

__all__ = ["command"]


@click.group("lcm")
def command() -> None:
    """The LCM store: move it to a PostgreSQL server."""


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
        from hermes_engine_lcm.store.postgres.transfer import TransferError, transfer
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

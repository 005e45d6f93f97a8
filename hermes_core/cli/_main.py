"""``hermes-context``: list, select, check and try out context engines."""

from __future__ import annotations

import os
import sys
import traceback
from collections.abc import Sequence
from pathlib import Path

import click

from hermes_core._containment import watch_user_interrupts
from hermes_core._errors import HermesError
from hermes_core._version import __version__
from hermes_core.cli._output import LOG_FORMATS, configure_logging, err, fail, repeated_summary
from hermes_core.cli._plugins import CommandsGroup

__all__ = ["cli", "main"]


@click.group(cls=CommandsGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--config",
    "config_path",
    type=click.Path(dir_okay=False),
    default=None,
    help="config.yaml to use (default: $HERMES_CONFIG, else $HERMES_HOME/config.yaml).",
)
@click.option("--debug", is_flag=True, help="Show tracebacks and info-level events.")
@click.option(
    "--log-format",
    type=click.Choice(LOG_FORMATS),
    default="console",
    show_default=True,
    envvar="HERMES_LOG_FORMAT",
    show_envvar=True,
    help="How events are written to stderr: console lines, or one JSON object per line.",
)
@click.version_option(__version__, "-V", "--version", prog_name="hermes-context")
@click.pass_context
def cli(ctx: click.Context, config_path: str | None, debug: bool, log_format: str) -> None:
    """Context engines for LLM agents: list them, select one, check it, replay a conversation."""
    configure_logging(debug, log_format)
    # a file named on the command line or by $HERMES_CONFIG must be there (select may
    # create it: --create)
    named, how = (
        (config_path, "--config")
        if config_path
        else (
            os.environ.get("HERMES_CONFIG") or None,
            "$HERMES_CONFIG",
        )
    )
    if named and not Path(named).expanduser().is_file() and ctx.invoked_subcommand != "select":
        fail(
            f"{how} {named}: no such file; name an existing config.yaml, or create "
            f"it: hermes-context --config {named} select NAME --create"
        )
    ctx.obj = {"config_path": config_path, "debug": debug}


def _register() -> None:
    from hermes_core.cli import _doctor as doctor
    from hermes_core.cli import _engines as engines
    from hermes_core.cli import _packages as packages
    from hermes_core.cli import _select as select
    from hermes_core.cli import _sessions as sessions
    from hermes_core.cli import replay, scaffold

    for module in (engines, select, doctor, replay, scaffold, sessions):
        cli.add_command(module.command)
    cli.add_command(packages.install)
    cli.add_command(packages.uninstall)


_register()


def _early_logging(args: Sequence[str]) -> None:
    """Logging as the options will set it, before click parses them: loading an added command
    happens during parsing, and what it reports must be seen."""
    log_format = os.environ.get("HERMES_LOG_FORMAT", "console")
    for index, arg in enumerate(args):
        if arg == "--log-format" and index + 1 < len(args):
            log_format = args[index + 1]
        elif arg.startswith("--log-format="):
            log_format = arg.split("=", 1)[1]
    configure_logging("--debug" in args, log_format if log_format in LOG_FORMATS else "console")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code. Errors print one line unless ``--debug``.

    A Ctrl-C from the user stops it (exit 130, said on stderr); a KeyboardInterrupt that
    engine or plugin code raises is contained like any other failure.
    """
    args = list(sys.argv[1:] if argv is None else argv)
    with watch_user_interrupts():
        return _run(args)


def _run(args: list[str]) -> int:
    _early_logging(args)
    try:
        return _command(args)
    finally:
        repeated_summary()


def _command(args: list[str]) -> int:
    try:
        # without standalone mode, click returns the code of ctx.exit() instead of raising
        code = cli.main(args=args, prog_name="hermes-context", standalone_mode=False)
        return code if isinstance(code, int) else 0
    except click.exceptions.Exit as exc:
        return int(exc.exit_code)
    except click.ClickException as exc:
        exc.show()
        return exc.exit_code
    except (click.exceptions.Abort, KeyboardInterrupt):
        err.print("interrupted", highlight=False)
        return 130
    except SystemExit as exc:
        return int(exc.code or 0) if not isinstance(exc.code, str) else 2
    except HermesError as exc:
        if "--debug" in args:
            traceback.print_exc()
        try:
            fail(str(exc))
        except SystemExit as done:
            return int(done.code or 2)
    except Exception as exc:
        if "--debug" in args:
            traceback.print_exc()
        try:
            fail(f"{type(exc).__name__}: {exc} (run with --debug for the traceback)", code=1)
        except SystemExit as done:
            return int(done.code or 1)
    return 0

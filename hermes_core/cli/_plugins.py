"""Commands that installed distributions add to ``hermes-context``.

A distribution declares a click command under the entry-point group
``hermes_context.commands`` (``lcm = "hermes_engine_lcm.cli:command"`` makes
``hermes-context lcm ...``). Such a command is imported only when it is
named or the commands are listed; a built-in command of the same name wins,
and one that cannot be imported is left out with a warning.
"""

from __future__ import annotations

from importlib.metadata import EntryPoint, entry_points
from typing import Any

import click

from hermes_core._containment import reraise_user_interrupt
from hermes_core._log import logger

__all__ = ["COMMANDS_GROUP", "CommandsGroup"]

#: The entry-point group of added commands.
COMMANDS_GROUP = "hermes_context.commands"


def _declared() -> dict[str, EntryPoint]:
    return {point.name: point for point in entry_points(group=COMMANDS_GROUP)}


class CommandsGroup(click.Group):
    """The built-in commands, then those installed distributions declare."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        #: Added commands that failed to load: name -> what went wrong.
        self._unloadable: dict[str, str] = {}

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """Each command with the whole first sentence of its help, wrapped (click cuts it
        at 45 characters, mid-sentence)."""
        rows = []
        for name in self.list_commands(ctx):
            command = self.get_command(ctx, name)
            if command is not None and not command.hidden:
                rows.append((name, command.get_short_help_str(limit=1_000)))
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *_declared()})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        found = super().get_command(ctx, cmd_name)
        if found is not None:  # a built-in: no need to read every distribution's metadata
            return found
        point = _declared().get(cmd_name)
        if point is None:
            return None
        try:
            loaded = point.load()
            if not isinstance(loaded, click.Command):
                raise TypeError("not a click command")
        except BaseException as exc:  # sys.exit() at import must not end hermes-context
            reraise_user_interrupt(exc)
            error = f"{type(exc).__name__}: {exc}"
            self._unloadable[cmd_name] = f"{error} (entry point {point.value})"
            logger.warning(
                "cli.command_unloadable", command=cmd_name, entry_point=point.value, error=error
            )
            return None
        return loaded

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        name = click.utils.make_str(args[0]) if args else ""
        if name and super().get_command(ctx, name) is None and name in _declared():
            found = self.get_command(ctx, name)
            if found is None:
                ctx.fail(
                    f"command '{name}' is installed but could not be loaded: "
                    f"{self._unloadable.get(name, 'see the warning above')}; reinstall or "
                    "uninstall the distribution that adds it"
                )
        return super().resolve_command(ctx, args)

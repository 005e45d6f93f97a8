"""Commands that installed distributions add to ``hermes-context``.

A distribution declares a click command under the entry-point group
``hermes_context.commands`` (``lcm = "hermes_engine_lcm.cli:command"`` makes
``hermes-context lcm ...``). Such a command is imported only when it is
named or the commands are listed; a built-in command of the same name wins,
and one that cannot be imported is left out with a warning.
"""

from __future__ import annotations

from importlib.metadata import EntryPoint, entry_points

import click

from hermes_core.log import logger

__all__ = ["COMMANDS_GROUP", "CommandsGroup"]

#: The entry-point group of added commands.
COMMANDS_GROUP = "hermes_context.commands"


def _declared() -> dict[str, EntryPoint]:
    return {point.name: point for point in entry_points(group=COMMANDS_GROUP)}


class CommandsGroup(click.Group):
    """The built-in commands, then those installed distributions declare."""

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
        except Exception as exc:
            logger.warning(
                "cli.command_unloadable",
                command=cmd_name,
                entry_point=point.value,
                error=f"{type(exc).__name__}: {exc}",
            )
            return None
        return loaded

"""Commands installed distributions add to ``hermes-context`` (hermes_context.commands)."""

from __future__ import annotations

import pytest

from hermes_core.cli import main
from hermes_core.testing import EventCapture, TemporarySite

GREETING = '''
import click

@click.command("greet")
@click.argument("name")
def command(name):
    """Say hello."""
    click.echo(f"hello {name}")
'''


def test_a_distribution_adds_a_command_imported_only_when_used(
    hermes_site: TemporarySite, capsys: pytest.CaptureFixture[str]
) -> None:
    hermes_site.add(
        "acme-tools",
        entry_points={"hermes_context.commands": {"greet": "acme_greet:command"}},
        files={"acme_greet.py": GREETING},
    )
    assert main(["--help"]) == 0
    assert "greet" in capsys.readouterr().out
    assert main(["greet", "world"]) == 0
    assert capsys.readouterr().out == "hello world\n"


def test_a_broken_or_clashing_command_is_left_out_and_the_rest_works(
    hermes_site: TemporarySite, capsys: pytest.CaptureFixture[str], logs: EventCapture
) -> None:
    hermes_site.add(
        "acme-broken",
        entry_points={
            "hermes_context.commands": {"broken": "acme_broken:command", "engines": "x:y"}
        },
        files={"acme_broken.py": "raise RuntimeError('broken at import')\n"},
    )
    assert main(["broken"]) == 2  # no such command
    (event,) = logs.named("cli.command_unloadable")
    assert event["command"] == "broken" and "broken at import" in event["error"]
    capsys.readouterr()
    assert main(["engines"]) == 0  # the built-in command wins over the clashing one
    assert "compressor" in capsys.readouterr().out

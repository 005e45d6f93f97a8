"""The ``hermes-context`` command line (click, rich)."""

from hermes_core.cli._main import cli, main

__all__ = ["cli", "main"]

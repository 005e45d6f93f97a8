"""The pluggy markers of the ``hermes`` project."""

from __future__ import annotations

import pluggy

__all__ = ["PROJECT_NAME", "hookimpl", "hookspec"]

#: The pluggy project name: hook attributes are ``hermes_spec`` / ``hermes_impl``.
PROJECT_NAME = "hermes"

#: Marks a hook specification in :mod:`hermes_core.hooks`.
hookspec = pluggy.HookspecMarker(PROJECT_NAME)

#: Marks a general plugin's hook implementation, e.g. ``register_context_engines``.
hookimpl = pluggy.HookimplMarker(PROJECT_NAME)

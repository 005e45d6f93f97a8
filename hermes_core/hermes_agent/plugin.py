"""The Hermes Agent plugin ``hermes-context`` (entry point in group ``hermes_agent.plugins``).

Enable it in Hermes Agent's ``config.yaml`` and name one of our engines::

    plugins:
      enabled: [hermes-context]
    context:
      engine: lcm

Hermes Agent then runs that engine (any engine installed in group
``hermes.context_engines`` or in a plugin directory) through its own
compression path, with its tools offered to the model. With
``context.engine: compressor`` Hermes keeps its own compressor and this plugin
registers nothing.
"""

from __future__ import annotations

from typing import Any

__all__ = ["register"]


def register(ctx: Any) -> None:
    """Hermes Agent's plugin hook: register the adapter of the selected engine, if it is ours."""
    from hermes_core.hermes_agent._adapter import hermes_engine

    engine = hermes_engine()
    if engine is not None:
        ctx.register_context_engine(engine)

"""Interoperability with Hermes Agent 0.19, both ways.

* Our engines inside Hermes Agent: :mod:`~hermes_core.hermes_agent.plugin` is a
  Hermes plugin (entry point ``hermes-context`` in group
  ``hermes_agent.plugins``) that hands Hermes an adapter
  (:mod:`~hermes_core.hermes_agent.adapter`) running the engine named by
  ``context.engine`` on a :class:`~hermes_core.ContextHost`, with Hermes'
  auxiliary LLM as ``llm`` (:mod:`~hermes_core.hermes_agent.llm`).
* Hermes' context-engine plugins on our host:
  :mod:`~hermes_core.hermes_agent.discovery` finds the enabled ones (plugin
  directories and ``hermes_agent.plugins`` entry points), runs their
  ``register(ctx)`` with a :class:`~hermes_core.hermes_agent.plugin_context.HermesPluginContext`,
  and wraps each engine they register
  (:mod:`~hermes_core.hermes_agent.wrapped_engine`). Where Hermes is not
  installed, :mod:`~hermes_core.hermes_agent.shims` stands in for the three
  Hermes modules such plugins import.

Nothing here imports Hermes unless it runs inside Hermes.
"""

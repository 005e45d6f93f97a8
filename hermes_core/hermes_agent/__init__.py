"""Interoperability with Hermes Agent 0.19, both ways.

* Our engines inside Hermes Agent: :mod:`~hermes_core.hermes_agent.plugin` is a
  Hermes plugin (entry point ``hermes-context`` in group
  ``hermes_agent.plugins``) that hands Hermes an adapter
  (:mod:`~hermes_core.hermes_agent._adapter`) running the engine named by
  ``context.engine`` on a :class:`~hermes_core.ContextHost`, with Hermes'
  auxiliary LLM as ``llm`` (:mod:`~hermes_core.hermes_agent._llm`).
* Hermes' context-engine plugins on our host are a discovery source of their
  own: :mod:`hermes_core.sources.hermes_plugins`.
* :mod:`~hermes_core.hermes_agent._forecast` asks an installed Hermes Agent
  which engine it will run (``hermes-context doctor``).

Nothing here imports Hermes unless it runs inside Hermes.
"""

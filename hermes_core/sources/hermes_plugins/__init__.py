"""Hermes Agent's plugins on hermes-context's host.

:mod:`.plugins` finds the enabled ones (plugin folders and ``hermes_agent.plugins``
entry points) and runs their ``register(ctx)`` with a
:class:`~.plugin_context.HermesPluginContext`; :mod:`.engine_folders` loads the
plugin guide's ``plugins/context_engine/<name>/`` folders as Hermes' loader does;
each engine they give is wrapped (:mod:`.wrapped_engine`). Where Hermes Agent is
not installed, :mod:`.shims` stands in for the modules such plugins import
(:mod:`.hermes_abc` is Hermes 0.19's base class). Nothing here imports Hermes
unless it is installed.
"""

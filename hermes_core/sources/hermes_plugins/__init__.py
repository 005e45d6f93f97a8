"""Hermes Agent's plugins on hermes-context's host (this direction: Hermes' plugins here;
:mod:`hermes_core.hermes_agent` is the other, our engines inside Hermes).

:mod:`._plugins` finds the enabled ones (plugin folders and ``hermes_agent.plugins``
entry points) and runs their ``register(ctx)`` with a
:class:`~._plugin_context.HermesPluginContext`; :mod:`._engine_folders` loads the
plugin guide's ``plugins/context_engine/<name>/`` folders as Hermes' loader does;
each engine they give is wrapped (:mod:`._wrapped_engine`). Where Hermes Agent is
not installed, :mod:`._shims` stands in for the modules such plugins import
(:mod:`._hermes_abc` is Hermes 0.19's base class). Nothing here imports Hermes
unless it is installed.
"""

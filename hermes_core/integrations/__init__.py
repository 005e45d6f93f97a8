"""Our engines inside the agent frameworks most agents are built on.

- :mod:`hermes_core.integrations.langchain`: ``ContextEngineMiddleware`` for
  ``langchain.agents.create_agent`` (``pip install "hermes-context[langchain]"``).
- :mod:`hermes_core.integrations.openai_agents`: a ``Session``, a
  ``call_model_input_filter`` and function tools for the OpenAI Agents SDK
  (``pip install "hermes-context[openai-agents]"``).

Importing this package imports neither framework; importing a subpackage
without its extra raises :class:`MissingExtraError`, naming the pip line.
"""

from hermes_core.integrations._extras import MissingExtraError

__all__ = ["MissingExtraError"]

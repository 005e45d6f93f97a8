"""A context engine inside a LangChain v1 agent: ``pip install "hermes-context[langchain]"``.

.. code-block:: python

    from langchain.agents import create_agent
    from hermes_core.integrations.langchain import ContextEngineMiddleware

    agent = create_agent(model, tools, middleware=[ContextEngineMiddleware()])

Without the extra, importing this module raises
:class:`~hermes_core.integrations.MissingExtraError`, naming the pip line.
"""

from hermes_core.integrations._extras import require

require("langchain", "langchain", "langchain.agents.middleware", "langgraph")

from hermes_core.integrations.langchain._messages import (  # noqa: E402
    MessageMap,
    from_openai,
    to_openai,
)
from hermes_core.integrations.langchain._middleware import ContextEngineMiddleware  # noqa: E402
from hermes_core.integrations.langchain._tools import engine_tools  # noqa: E402

__all__ = ["ContextEngineMiddleware", "MessageMap", "engine_tools", "from_openai", "to_openai"]

"""Our engines in the OpenAI Agents SDK: ``pip install "hermes-context[openai-agents]"``.

.. code-block:: python

    from agents import Agent, Runner
    from hermes_core import ContextHost
    from hermes_core.integrations.openai_agents import ContextEngineSession

    host = ContextHost.from_config()
    session = ContextEngineSession("user-42", host, context_length=128_000)
    agent = Agent(name="assistant", tools=[*my_tools, *session.tools])
    result = await Runner.run(agent, "hi", session=session, run_config=session.run_config())

Without the extra, importing this module raises
:class:`~hermes_core.integrations.MissingExtraError`, naming the pip line.
"""

from hermes_core.integrations._extras import require

require("openai_agents", "openai-agents", "agents")

from hermes_core.integrations.openai_agents._input_filter import (  # noqa: E402
    ContextEngineInputFilter,
)
from hermes_core.integrations.openai_agents._items import ItemMap, to_messages  # noqa: E402
from hermes_core.integrations.openai_agents._session import (  # noqa: E402
    ContextEngineRunHooks,
    ContextEngineSession,
)
from hermes_core.integrations.openai_agents._tools import engine_function_tools  # noqa: E402

__all__ = [
    "ContextEngineInputFilter",
    "ContextEngineRunHooks",
    "ContextEngineSession",
    "ItemMap",
    "engine_function_tools",
    "to_messages",
]

"""``call_model_input_filter``: the engine's ``select_context`` on every model call."""

from __future__ import annotations

import asyncio
from typing import Any

from agents.run_config import CallModelData, ModelInputData

from hermes_core.host import ContextHost
from hermes_core.integrations._window import configured_window
from hermes_core.integrations.openai_agents._items import ItemMap

__all__ = ["ContextEngineInputFilter"]


class ContextEngineInputFilter:
    """A ``RunConfig(call_model_input_filter=...)`` that hands each model call's input
    (the agent's instructions as the system message, then the items) to the engine's
    ``select_context``, within the window less the reply's reserve, for ``session_id``
    (default: the host's current session).

    What the engine keeps comes back as the very items it stood for; what it made (a
    summary) as new message items. An engine without ``select_context``, or one that
    fails, leaves the input as it was. ``context_length`` is the model's whole window
    (else ``model.context_length`` in config.yaml); ``model`` names the model to the
    engine."""

    def __init__(
        self,
        host: ContextHost,
        *,
        session_id: str | None = None,
        context_length: int | None = None,
        model: str = "agent-model",
    ) -> None:
        self.host = host
        self.session_id = session_id
        #: Whether the engine rewrote the last input: then the model's usage measures the
        #: engine's request, not the session's history.
        self.assembled = False
        window = configured_window(host, context_length, "ContextEngineInputFilter")
        if host.context_window != window:
            host.update_model(model, window)

    async def __call__(self, data: CallModelData[Any]) -> ModelInputData:
        return await asyncio.to_thread(self.select, data.model_data)

    def select(self, model_data: ModelInputData) -> ModelInputData:
        """The input the model gets (synchronous; the filter runs it on a worker thread)."""
        items = list(model_data.input)
        self.assembled = False
        if not items:
            return model_data
        mapping = ItemMap(items)
        instructions = model_data.instructions
        system = [{"role": "system", "content": instructions}] if instructions else []
        plain = [*system, *mapping.messages]
        selected = self.host.select_context(
            plain,
            conversation_messages=plain[:-1],
            incoming_message=plain[-1],
            budget_tokens=self.host.input_budget_tokens,
            session_id=self.session_id,
        )
        if selected is plain:
            return model_data
        self.assembled = True
        if system and selected and selected[0].get("role") == "system":
            # the engine's system message stands in for the instructions (it may carry more)
            instructions = str(selected[0].get("content") or "")
            selected = selected[1:]
        return ModelInputData(input=mapping.items(selected), instructions=instructions)

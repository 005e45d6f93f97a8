"""Hermes Agent's auxiliary LLM as the ``llm`` our engines receive inside Hermes Agent.

:class:`HermesAuxiliaryLLM` answers :meth:`complete` with
``agent.auxiliary_client.call_llm(task="compression", ...)``, so an engine's
summaries go to the provider and model Hermes Agent's ``auxiliary.compression``
(or its automatic choice) names, with Hermes' own credentials.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from hermes_core._redaction import quote_body
from hermes_core.llm import LLMNetworkError, LLMResponseError

__all__ = ["HermesAnswer", "HermesAuxiliaryLLM"]


@dataclass(frozen=True)
class HermesAnswer:
    """What one call returned: the text, the usage reported, the model that answered."""

    text: str
    usage: dict[str, Any] = field(default_factory=dict)
    model: str = ""


def _usage(response: Any) -> dict[str, Any]:
    usage = getattr(response, "usage", None)
    if usage is None:
        return {}
    if isinstance(usage, Mapping):
        return dict(usage)
    keys = ("prompt_tokens", "completion_tokens", "total_tokens")
    return {key: getattr(usage, key) for key in keys if isinstance(getattr(usage, key, None), int)}


class HermesAuxiliaryLLM:
    """The :class:`~hermes_core.llm.LLM` of our engines inside Hermes Agent."""

    task = "compression"

    def complete(
        self,
        messages: Sequence[Mapping[str, Any]],
        *,
        max_tokens: int | None = None,
        temperature: float | None = None,
    ) -> HermesAnswer:
        """One completion through Hermes Agent's ``call_llm``.

        Raises :class:`~hermes_core.llm.LLMNetworkError` when Hermes Agent
        has no auxiliary LLM to offer or the call fails, and
        :class:`~hermes_core.llm.LLMResponseError` when the answer holds no text;
        either message carries Hermes' error with secrets redacted.
        """
        from agent.auxiliary_client import call_llm  # inside Hermes Agent only

        try:
            response = call_llm(
                task=self.task,
                messages=[dict(message) for message in messages],
                max_tokens=max_tokens,
                temperature=temperature,
            )
        except Exception as exc:
            raise LLMNetworkError(
                f"Hermes Agent's call_llm(task={self.task!r}) failed: "
                f"{type(exc).__name__}: {quote_body(str(exc))}"
            ) from exc
        try:
            text = response.choices[0].message.content
        except (AttributeError, IndexError, TypeError):
            text = None
        if not isinstance(text, str) or not text.strip():
            raise LLMResponseError(
                f"Hermes Agent's call_llm(task={self.task!r}) answered without text"
            )
        return HermesAnswer(text, _usage(response), str(getattr(response, "model", "") or ""))

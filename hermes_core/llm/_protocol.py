"""``LLM``: the type of the auxiliary client an engine receives as ``llm``.

:class:`~hermes_core.llm.ChatClient` is one; so is anything else an
integrator hands the registry with ``EngineRegistry.use_llm`` (a test double
over a local server, an adapter over another host's client), as long as it
has this method.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

__all__ = ["LLM", "Completion"]


class Completion(Protocol):
    """What ``LLM.complete`` returns: at least the answer's text."""

    @property
    def text(self) -> str: ...


class LLM(Protocol):
    """A chat-completions client.

    ``complete`` sends ``messages`` and returns the first choice. It raises
    :class:`~hermes_core.llm.LLMError` subclasses on failure. ``deadline`` (a
    ``time.monotonic()`` value) is optional for an implementation: callers
    pass it only when the method accepts it.
    """

    def complete(
        self,
        messages: Sequence[Mapping[str, Any]],
        *,
        max_tokens: int | None = None,
        temperature: float | None = None,
    ) -> Completion: ...

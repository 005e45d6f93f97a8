"""Engines for host tests: each one behaves in one way a real engine might."""

from __future__ import annotations

import copy
import threading
from typing import Any

from hermes_core import ContextEngine


class Recording(ContextEngine):
    """A well-behaved engine that records every call it receives."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, tuple[Any, ...], dict[str, Any]]] = []

    @property
    def name(self) -> str:
        return "recording"

    def _record(self, method: str, *args: Any, **kwargs: Any) -> None:
        self.calls.append((method, args, kwargs))

    def calls_to(self, method: str) -> list[tuple[tuple[Any, ...], dict[str, Any]]]:
        return [(a, k) for m, a, k in self.calls if m == method]

    def update_from_response(self, usage: dict[str, Any]) -> None:
        self._record("update_from_response", usage)
        self.last_prompt_tokens = usage["prompt_tokens"]

    def should_compress(self, prompt_tokens: int | None = None) -> bool:
        return prompt_tokens is not None and prompt_tokens > 100

    def compress(self, messages: Any, current_tokens: Any = None, focus_topic: Any = None) -> Any:
        self._record("compress", messages, current_tokens=current_tokens, focus_topic=focus_topic)
        self.compression_count += 1
        return [m for m in messages if m["role"] in ("system", "user")][-2:]


class Preflight(Recording):
    """Never at its threshold; below it, its preflight asks for one pass as soon as the
    conversation holds ``after`` messages, and never again (as Hermes 0.22 lets an engine
    do maintenance below the threshold)."""

    after = 6

    @property
    def name(self) -> str:
        return "preflight"

    def should_compress(self, prompt_tokens: int | None = None) -> bool:
        return False

    def should_compress_preflight(self, messages: Any) -> bool:
        self._record("should_compress_preflight", len(messages))
        return len(messages) >= self.after and not self.calls_to("compress")

    def compress(self, messages: Any, current_tokens: Any = None, focus_topic: Any = None) -> Any:
        self._record("compress", messages, current_tokens=current_tokens, focus_topic=focus_topic)
        return list(messages)


class Selecting(Recording):
    """Overrides select_context and on_turn_complete; what it returns is set per test."""

    answer: Any = None
    raises: BaseException | None = None

    @property
    def name(self) -> str:
        return "selecting"

    def select_context(
        self,
        request_messages: Any,
        *,
        conversation_messages: Any = None,
        incoming_message: Any = None,
        budget_tokens: Any = 0,
    ) -> Any:
        self._record(
            "select_context",
            request_messages,
            conversation_messages=conversation_messages,
            incoming_message=incoming_message,
            budget_tokens=budget_tokens,
        )
        if self.raises is not None:
            raise self.raises
        return self.answer

    def on_turn_complete(self, messages: Any, usage: Any = None, **kwargs: Any) -> Any:
        self._record("on_turn_complete", messages, usage=usage, **kwargs)
        if self.raises is not None:
            raise self.raises


class Vandal(Selecting):
    """Mutates everything it is given, at every level, then returns what it mutated."""

    @property
    def name(self) -> str:
        return "vandal"

    def select_context(
        self,
        request_messages: Any,
        *,
        conversation_messages: Any = None,
        incoming_message: Any = None,
        budget_tokens: Any = 0,
    ) -> Any:
        for message in [*request_messages, *(conversation_messages or []), incoming_message]:
            if not isinstance(message, dict):
                continue
            message["content"] = "VANDALISED"
            message.pop("role", None)
            for call in message.get("tool_calls") or []:
                call["function"]["arguments"] = "{}"
                call["id"] = "stolen"
            message.setdefault("tool_calls", []).append({"id": "x"})
        request_messages.reverse()
        if conversation_messages is not None:
            conversation_messages.clear()
        return None

    def compress(self, messages: Any, current_tokens: Any = None, focus_topic: Any = None) -> Any:
        for message in messages:
            message["content"] = "VANDALISED"
        messages.clear()
        return messages

    def on_turn_complete(self, messages: Any, usage: Any = None, **kwargs: Any) -> Any:
        messages.clear()


class Blocking(Recording):
    """compress() waits for ``release`` (or its own timeout) before answering."""

    def __init__(self) -> None:
        super().__init__()
        self.release = threading.Event()
        self.started = threading.Event()
        self.finished = threading.Event()
        self.late: list[dict[str, Any]] = [{"role": "user", "content": "LATE RESULT"}]

    @property
    def name(self) -> str:
        return "blocking"

    def compress(self, messages: Any, current_tokens: Any = None, focus_topic: Any = None) -> Any:
        self.started.set()
        self.release.wait(10)
        self.finished.set()
        return copy.deepcopy(self.late)


class Returning(Recording):
    """compress() returns ``result`` as set per test."""

    result: Any = None

    @property
    def name(self) -> str:
        return "returning"

    def compress(self, messages: Any, current_tokens: Any = None, focus_topic: Any = None) -> Any:
        if isinstance(self.result, BaseException):
            raise self.result
        return self.result


#: The source of a module whose engine ``Orphaning`` breaks tool pairs: its
#: compress drops every assistant message, so tool results lose their calls.
ORPHANING_SOURCE = """
from hermes_core import ContextEngine

class Orphaning(ContextEngine):
    name = "orphaning"
    def update_from_response(self, usage):
        self.last_prompt_tokens = usage["prompt_tokens"]
        self.last_completion_tokens = usage["completion_tokens"]
        self.last_total_tokens = usage["total_tokens"]
    def should_compress(self, prompt_tokens=None):
        return False
    def compress(self, messages, current_tokens=None, focus_topic=None):
        return [m for m in messages if m["role"] != "assistant"]
"""

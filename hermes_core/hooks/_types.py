"""The types the hook surface speaks in, named once.

Every hook, the base class, the host and the Hermes classes write these names
instead of spelling out the dictionaries they stand for, so a reader sees what
a value is (a conversation, one message, a usage record) and a type checker
sees the same thing everywhere.
"""

from __future__ import annotations

from typing import Any

__all__ = ["Message", "Messages", "ToolSchema", "Usage"]

#: One OpenAI-format chat message (``{"role": ..., "content": ...}``).
Message = dict[str, Any]

#: A conversation, or the part of one a request holds: messages in order.
Messages = list[Message]

#: A provider's token usage as the host hands it to an engine, normalised:
#: ``prompt_tokens``, ``completion_tokens``, ``total_tokens`` and whatever else
#: the provider reported.
Usage = dict[str, Any]

#: One tool an engine offers, as an OpenAI function schema
#: (``{"name": ..., "description": ..., "parameters": {...}}``).
ToolSchema = dict[str, Any]

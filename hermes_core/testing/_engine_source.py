"""The source text of a minimal, valid engine module, for tests that install engines."""

from __future__ import annotations

__all__ = ["engine_module_source"]

_TEMPLATE = '''
from hermes_core import ContextEngine


class {class_name}(ContextEngine):
    """{description}"""

    def __init__(self, config=None, hermes_home=None):
        self.config = config
        self.hermes_home = hermes_home

    @property
    def name(self):
        return "{name}"

    def update_from_response(self, usage):
        self.last_prompt_tokens = usage["prompt_tokens"]
        self.last_completion_tokens = usage["completion_tokens"]
        self.last_total_tokens = usage["total_tokens"]

    def should_compress(self, prompt_tokens=None):
        return bool(prompt_tokens) and prompt_tokens >= self.threshold_tokens > 0

    def compress(self, messages, current_tokens=None, focus_topic=None):
        self.compression_count += 1
        return list(messages)
'''


def engine_module_source(
    name: str, *, class_name: str = "Engine", description: str = "A test engine.", extra: str = ""
) -> str:
    """A module defining ``class_name``, an engine reporting ``name``; ``extra`` goes in the class.

    The engine stores the ``config`` and ``hermes_home`` it is built with and
    returns its input from ``compress``.
    """
    source = _TEMPLATE.format(class_name=class_name, description=description, name=name)
    return source + extra

from __future__ import annotations

from collections.abc import Iterator

import pytest
import structlog
from structlog.testing import LogCapture

pytest_plugins = ["pytester"]

#: Source of a minimal, valid engine module; ``{name}`` is the engine name.
ENGINE_SOURCE = '''
from hermes_core import ContextEngine


class Engine(ContextEngine):
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


def engine_source(name: str, description: str = "A test engine.", extra: str = "") -> str:
    """The source of a valid engine module, with ``extra`` appended inside the class."""
    return ENGINE_SOURCE.format(name=name, description=description) + extra


@pytest.fixture
def logs() -> Iterator[LogCapture]:
    """Structured events emitted during the test, as dicts."""
    capture = LogCapture()
    old = structlog.get_config()
    structlog.configure(processors=[capture])
    try:
        yield capture
    finally:
        structlog.configure(**old)


def events(capture: LogCapture, name: str) -> list[dict[str, object]]:
    return [entry for entry in capture.entries if entry["event"] == name]

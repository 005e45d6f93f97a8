from __future__ import annotations

from collections.abc import Iterator

import pytest
import structlog
from structlog.testing import LogCapture

from hermes_core.testing import engine_module_source

pytest_plugins = ["pytester"]


def engine_source(name: str, description: str = "A test engine.", extra: str = "") -> str:
    """The source of a valid engine module, with ``extra`` appended inside the class."""
    return engine_module_source(name, description=description, extra=extra)


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


@pytest.fixture(scope="session")
def httpserver_listen_address() -> tuple[str, int]:
    """pytest-httpserver listens on 127.0.0.1 (not whatever 'localhost' resolves to)."""
    return ("127.0.0.1", 0)

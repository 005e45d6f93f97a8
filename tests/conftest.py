from __future__ import annotations

from collections.abc import Iterator

import pytest

from hermes_core.testing import EventCapture, capture_events, engine_module_source

pytest_plugins = ["pytester"]


def engine_source(name: str, description: str = "A test engine.", extra: str = "") -> str:
    """The source of a valid engine module, with ``extra`` appended inside the class."""
    return engine_module_source(name, description=description, extra=extra)


@pytest.fixture
def logs() -> Iterator[EventCapture]:
    """Structured events emitted during the test, as dicts."""
    with capture_events() as capture:
        yield capture


def events(capture: EventCapture, name: str) -> list[dict[str, object]]:
    return capture.named(name)


@pytest.fixture(scope="session")
def httpserver_listen_address() -> tuple[str, int]:
    """pytest-httpserver listens on 127.0.0.1 (not whatever 'localhost' resolves to)."""
    return ("127.0.0.1", 0)

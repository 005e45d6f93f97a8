from __future__ import annotations

from collections.abc import Iterator

import pytest

from hermes_core.testing import EventCapture, capture_events

pytest_plugins = ["pytester"]


@pytest.fixture
def logs() -> Iterator[EventCapture]:
    """Structured events emitted during the test, as dicts."""
    with capture_events() as capture:
        yield capture


@pytest.fixture(scope="session")
def httpserver_listen_address() -> tuple[str, int]:
    """pytest-httpserver listens on 127.0.0.1 (not whatever 'localhost' resolves to)."""
    return ("127.0.0.1", 0)

"""Where an example agent runs when its reader names nothing: offline, in a throwaway home."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager

from hermes_core.testing._openai_server import fake_openai_server

__all__ = ["example_setting"]


@contextmanager
def example_setting(
    base_url: str | None = None, hermes_home: str | None = None
) -> Iterator[tuple[str, dict[str, str]]]:
    """The model server and the environment of an example run, for the block.

    ``base_url``, else the project's fake OpenAI server on 127.0.0.1 (no network, no
    key: :func:`~hermes_core.testing.fake_openai_server`); ``hermes_home``, else a
    temporary folder removed afterwards, so an example never writes into the user's own
    store. The environment is the process's with ``HERMES_HOME`` set to it.
    """
    with ExitStack() as stack:
        if base_url is None:
            base_url = stack.enter_context(fake_openai_server()).url
        if hermes_home is None:
            hermes_home = stack.enter_context(tempfile.TemporaryDirectory(prefix="example-"))
        yield base_url, {**os.environ, "HERMES_HOME": hermes_home}

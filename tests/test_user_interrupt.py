"""The user's Ctrl-C reaches the user in every bounded path: a real SIGINT delivered to the
agent's thread while it waits for a hung engine (default timeouts)."""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable
from typing import Any

import pytest

from hermes_core import ContextEngine, ContextHost
from hermes_core.testing import host_for, sample_conversation


class Hung(ContextEngine):
    """Every call that may do work waits until the test lets it go."""

    entered = threading.Event()
    release = threading.Event()

    @property
    def name(self) -> str:
        return "hung"

    def _hang(self) -> None:
        Hung.entered.set()
        Hung.release.wait(60)

    def update_from_response(self, usage: dict[str, Any]) -> None:
        pass

    def should_compress(self, prompt_tokens: int | None = None) -> bool:
        return True

    def compress(self, messages: Any, current_tokens: Any = None, focus_topic: Any = None) -> Any:
        self._hang()
        return messages

    def select_context(self, request_messages: Any, **kwargs: Any) -> Any:
        self._hang()
        return None

    def on_turn_complete(self, messages: Any, usage: Any = None, **kwargs: Any) -> None:
        self._hang()


CALLS: dict[str, Callable[[ContextHost, list[dict[str, Any]]], object]] = {
    "compress": lambda host, history: host.compress(history),
    "select_context": lambda host, history: host.select_context(
        history, conversation_messages=history
    ),
    "turn_complete": lambda host, history: host.turn_complete(history),
}


@pytest.mark.parametrize("call", list(CALLS))
def test_a_real_sigint_reaches_the_user_while_the_host_waits_for_the_engine(call: str) -> None:
    assert threading.current_thread() is threading.main_thread()
    Hung.entered.clear()
    Hung.release.clear()
    host = host_for(Hung)  # default bounds: 120 s a pass, 30 s a hook
    history = sample_conversation(3)

    def press_ctrl_c() -> None:
        if Hung.entered.wait(30):  # the engine is running on a pool thread, the agent waits
            signal.pthread_kill(threading.main_thread().ident or 0, signal.SIGINT)

    presser = threading.Thread(target=press_ctrl_c)
    presser.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            CALLS[call](host, history)
    finally:
        presser.join()
        Hung.release.set()
    status = host.status()
    assert status["pass_failures"] == 0 and status["hook_failures"] == 0  # not the engine's

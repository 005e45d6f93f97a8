"""No loop of passes, whatever the engine: a pass that does not help backs the next ones
off (2, 4, 8, ... responses), logged and counted; one that helps ends it; a prompt at the
window is never held."""

from __future__ import annotations

from typing import Any

import pytest

from hermes_core import ContextEngine, ContextHost
from hermes_core.host._backoff import LONGEST, PassBackoff
from hermes_core.testing import EventCapture, host_for

RESPONSES = 200
WINDOW = 100_000


def conversation(size: int) -> list[dict[str, Any]]:
    return [
        {"role": "system", "content": "You are an agent."},
        *({"role": "user", "content": f"turn {n} " + "x" * 400} for n in range(size)),
    ]


class Always(ContextEngine):
    """Asks for a pass on every response."""

    @property
    def name(self) -> str:
        return "always"

    def update_from_response(self, usage: dict[str, Any]) -> None:
        self.last_prompt_tokens = usage["prompt_tokens"]

    def should_compress(self, prompt_tokens: int | None = None) -> bool:
        return True

    def compress(self, messages: Any, current_tokens: Any = None, focus_topic: Any = None) -> Any:
        return messages


class FreesNothing(Always):
    @property
    def name(self) -> str:
        return "frees-nothing"

    def compress(self, messages: Any, current_tokens: Any = None, focus_topic: Any = None) -> Any:
        return [dict(m) for m in messages]  # a copy, not one token less


class Grows(Always):
    @property
    def name(self) -> str:
        return "grows"

    def compress(self, messages: Any, current_tokens: Any = None, focus_topic: Any = None) -> Any:
        return [*messages[:-1], {"role": "user", "content": "a note " * 200}, messages[-1]]


class Fails(Always):
    @property
    def name(self) -> str:
        return "fails"

    def compress(self, messages: Any, current_tokens: Any = None, focus_topic: Any = None) -> Any:
        raise RuntimeError("the summariser is down")


class Halves(Always):
    @property
    def name(self) -> str:
        return "halves"

    def compress(self, messages: Any, current_tokens: Any = None, focus_topic: Any = None) -> Any:
        return [messages[0], *messages[len(messages) // 2 + 1 :]]


def drive(host: ContextHost, responses: int, prompt: int = 50_000) -> int:
    """An agent loop: after each response, a pass when the host says so; how many ran."""
    host.update_model("model", WINDOW)
    messages = conversation(40)
    ran = 0
    for _ in range(responses):
        host.record_usage({"prompt_tokens": prompt, "completion_tokens": 10})
        if host.should_compress(prompt):
            host.compress(messages)
            ran += 1
    return ran


@pytest.mark.parametrize("engine", [FreesNothing, Grows, Fails])
def test_an_engine_that_does_not_help_gets_a_few_passes_not_one_a_turn(
    engine: type[Always], logs: EventCapture
) -> None:
    host = host_for(engine)
    ran = drive(host, RESPONSES)
    # 2, 4, 8, 16, 32, 64, 64 responses apart: 8 passes in 200 responses, not 200
    assert ran <= 9, ran
    status = host.status()
    assert status["passes_backed_off"] == ran
    assert status["passes_held"] == RESPONSES - ran
    (first, *_) = logs.named("context_engine.passes_backed_off")
    assert first["reason"] == "freed_too_little" and first["responses"] == 2


def test_a_pass_that_helps_runs_whenever_asked_once_not_too_soon() -> None:
    host = host_for(Halves, config={"compression": {"min_turns_between_passes": 1}})
    assert drive(host, 50) == 50  # frees half each time, never backed off
    assert host.status()["passes_backed_off"] == 0


def test_passes_closer_than_the_stated_turns_back_off_too(logs: EventCapture) -> None:
    host = host_for(Halves, config={"compression": {"min_turns_between_passes": 3}})
    ran = drive(host, 60)
    assert ran < 60 / 2, ran
    assert {e["reason"] for e in logs.named("context_engine.passes_backed_off")} == {"too_soon"}


def test_at_the_window_passes_that_come_often_still_run() -> None:
    # a conversation growing fast needs a pass each turn there: frequent is not futile
    host = host_for(Halves, config={"compression": {"min_turns_between_passes": 3}})
    assert drive(host, RESPONSES, prompt=WINDOW) == RESPONSES
    assert host.status()["passes_held"] == 0


def test_at_the_window_an_engine_that_frees_nothing_is_still_backed_off() -> None:
    # one more pass would free nothing again: retried as each backoff ends, not every turn
    host = host_for(FreesNothing)
    assert drive(host, RESPONSES, prompt=WINDOW) <= 9


def test_the_backoff_is_in_status_and_a_new_conversation_ends_it() -> None:
    host = host_for(FreesNothing)
    drive(host, 1)
    assert host.status()["passes_backoff_responses_left"] == 2
    assert host.should_compress_info(50_000) == (False, "backed_off")
    host.reset_session()
    assert host.status()["passes_backoff_responses_left"] == 0
    assert host.should_compress(50_000)


def test_each_backoff_doubles_up_to_its_longest() -> None:
    backoff = PassBackoff(0.1, 2)
    lengths = []
    for _ in range(10):
        judged = backoff.judge(1_000, 1_000)
        assert judged is not None
        lengths.append(judged[1])
        for _ in range(judged[1]):
            backoff.response()
    assert lengths == [2, 4, 8, 16, 32, LONGEST, LONGEST, LONGEST, LONGEST, LONGEST]
    assert backoff.judge(1_000, 500) is None and not backoff.holding

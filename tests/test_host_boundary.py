"""The host's boundary: each message object copied once, every guarantee of the copies kept."""

from __future__ import annotations

import copy
from typing import Any

from hermes_core import ContextEngine
from hermes_core.host._handed import KEPT_LISTS
from hermes_core.testing import host_for, sample_conversation


class Keeping(ContextEngine):
    """Keeps every list it gets, and scribbles on it."""

    def __init__(self) -> None:
        self.kept: list[list[dict[str, Any]]] = []
        self.lengths: list[int] = []

    @property
    def name(self) -> str:
        return "keeping"

    def update_from_response(self, usage: dict[str, Any]) -> None:
        pass

    def should_compress(self, prompt_tokens: int | None = None) -> bool:
        return False

    def compress(self, messages: Any, current_tokens: Any = None, focus_topic: Any = None) -> Any:
        return messages

    def on_turn_complete(
        self, messages: list[dict[str, Any]], usage: Any = None, **kwargs: Any
    ) -> None:
        self.kept.append(messages)
        self.lengths.append(len(messages))
        messages[0]["content"] = "scribbled by the engine"
        messages.append({"role": "user", "content": "appended by the engine"})

    def select_context(self, request_messages: Any, **kwargs: Any) -> Any:
        self.kept.append(request_messages)
        request_messages[-1]["content"] = "scribbled by the engine"
        return None


def _engine(host: Any) -> Keeping:
    engine: Keeping = host.engine
    return engine


def test_each_message_object_is_copied_once_however_often_it_is_handed() -> None:
    host = host_for(Keeping)
    history = sample_conversation(50)
    for turn in range(5):
        history = [*history, {"role": "user", "content": f"turn {turn}"}]
        host.turn_complete(history)
    assert host._handed.copied == len(history)  # 201 + 5, not 5 x ~203


def test_an_engine_that_scribbles_on_its_copies_changes_nothing_the_agent_holds() -> None:
    host = host_for(Keeping)
    history = sample_conversation(10)
    original = copy.deepcopy(history)
    for _ in range(3):
        host.turn_complete(history)
        host.select_context(history, conversation_messages=history, budget_tokens=1_000)
    assert history == original


def test_an_agent_that_edits_after_a_call_changes_nothing_the_engine_kept() -> None:
    host = host_for(Keeping)
    history = sample_conversation(10)
    host.turn_complete(history)
    kept = copy.deepcopy(_engine(host).kept[0])
    history[3]["content"] = "edited by the agent"
    history.append({"role": "user", "content": "appended by the agent"})
    del history[5]
    assert _engine(host).kept[0] == kept


def test_each_call_hands_a_new_list_of_copies_true_to_the_list_handed() -> None:
    host = host_for(Keeping)
    history = sample_conversation(10)
    host.turn_complete(history)
    host.turn_complete(history)
    first, second = _engine(host).kept
    assert first is not second
    # the engine's append to its first list is not in the second
    assert _engine(host).lengths == [len(history), len(history)]


def test_a_list_rebuilt_from_new_objects_is_copied_anew() -> None:
    host = host_for(Keeping)
    history = sample_conversation(10)
    host.turn_complete(history)
    rebuilt = [dict(message) for message in history]
    rebuilt[4]["content"] = "a new object with new content"
    host.turn_complete(rebuilt)
    assert _engine(host).kept[-1][4]["content"] == "a new object with new content"
    assert host._handed.copied == 2 * len(history)


def test_a_message_edited_in_place_keeps_the_copy_made_when_it_was_first_handed() -> None:
    # the documented price of copying once: edits in place are not carried over; a new
    # message object is
    host = host_for(Keeping)
    history = sample_conversation(10)
    host.turn_complete(history)
    history[4]["_db_persisted"] = True  # as Hermes Agent marks a saved message
    host.turn_complete(history)
    assert "_db_persisted" not in _engine(host).kept[-1][4]


def test_the_host_remembers_the_lists_of_its_latest_kept_lists_sessions_only() -> None:
    """Memory is bounded by sessions: past KEPT_LISTS the least recent session's copies
    are forgotten (and made again if that session comes back)."""
    host = host_for(Keeping)
    history = sample_conversation(5)
    for n in range(KEPT_LISTS):
        host.turn_complete(history, session_id=f"s{n}")
    before = host._handed.copied
    host.turn_complete(history, session_id="s0")  # still remembered: nothing copied
    assert host._handed.copied == before
    host.turn_complete(history, session_id="new")  # one past the bound: s1 is the oldest now
    host.turn_complete(history, session_id="s0")
    before = host._handed.copied
    host.turn_complete(history, session_id="s1")  # forgotten: copied again, in full
    assert host._handed.copied == before + len(history)

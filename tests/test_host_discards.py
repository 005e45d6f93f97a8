"""A pass that throws the conversation away is refused: the turn in progress must survive a
pass, as ours always keep it; no legitimate pass of the compressor or LCM is refused at any
window from 2,000 to 128,000 tokens."""

from __future__ import annotations

import copy
import tempfile
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hermes_core import ContextHost
from hermes_core.testing import capture_events, host_for
from hermes_core.testing._conversations import sample_conversation
from tests.compressor.test_properties import conversation
from tests.host_engines import Returning

LONG = sample_conversation(100)  # 401 messages; the last exchange starts at 397
NOTE = {"role": "user", "content": "[the conversation was summarised]"}


def compressed(result: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    with host_for(Returning) as host, capture_events() as events:
        host.engine.result = result  # type: ignore[attr-defined]
        original = copy.deepcopy(LONG)
        out = host.compress(original)
        failed = events.named("context_engine.compress_failed")
        return out, {"status": host.status(), "failed": failed, "same": out is original}


def test_a_result_of_the_system_prompt_and_a_note_is_refused_and_counted() -> None:
    out, seen = compressed([LONG[0], NOTE])
    assert seen["same"] and out == LONG  # the agent keeps its messages
    assert seen["status"]["pass_invalid_results"] == 1
    (event,) = seen["failed"]
    assert event["reason"] == "invalid" and "thrown away" in event["detail"]


def test_a_result_that_keeps_the_turn_in_progress_is_a_pass() -> None:
    out, seen = compressed([LONG[0], NOTE, *LONG[-4:]])
    assert out == [LONG[0], NOTE, *LONG[-4:]] and not seen["failed"]
    last_answer_only = [LONG[0], NOTE, LONG[-1]]  # the user's ask folded, the answer kept
    out, seen = compressed(last_answer_only)
    assert out == last_answer_only and not seen["failed"]


def test_a_summary_merged_into_the_last_user_message_keeps_it() -> None:
    ask = LONG[-4]
    merged = {"role": "user", "content": f"[summary of turns 0-98]\n\n{ask['content']}"}
    out, seen = compressed([LONG[0], merged, *LONG[-3:]])
    assert out[1] == merged and not seen["failed"]
    reworded = {"role": "user", "content": "fix module 99"}  # the ask itself rewritten
    out, seen = compressed([LONG[0], reworded])
    assert seen["same"] and seen["failed"]


@st.composite
def long_conversation(draw: st.DrawFn) -> list[dict[str, Any]]:
    """A generated conversation, its messages repeated up to 200 times over, so that it
    reaches past the smallest windows and every internal share of the larger ones."""
    messages = draw(conversation())
    scale = draw(st.integers(1, 200))
    return [
        {**m, "content": m["content"] * scale} if isinstance(m.get("content"), str) else m
        for m in messages
    ]


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(long_conversation(), st.integers(2_000, 128_000), st.booleans())
def test_no_pass_of_the_compressor_or_lcm_is_refused_as_thrown_away(
    messages: list[dict[str, Any]], window: int, force: bool
) -> None:
    for name in ("compressor", "lcm"):
        with tempfile.TemporaryDirectory() as home, capture_events() as events:
            host = ContextHost.from_config(
                {"context": {"engine": name}, "lcm": {"threshold": 0.5}},
                env={"HERMES_HOME": home},
            )
            with host:
                host.update_model("model", window)
                host.start_session("s")
                host.compress(copy.deepcopy(messages), force=force)
            thrown = [
                e
                for e in events.named("context_engine.compress_failed")
                if "thrown away" in str(e.get("detail"))
            ]
            assert not thrown, (name, window, thrown)

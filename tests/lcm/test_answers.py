"""What LCM gives back is the caller's own and bounded (issue 10, 7-8)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from hermes_engine_lcm import LCMEngine

from hermes_core.testing._conversations import sample_conversation
from tests.lcm.sql import sql


def test_select_context_gives_fresh_copies_each_time(make_lcm: Callable[..., LCMEngine]) -> None:
    engine = make_lcm(context_length=3_000)
    history = sample_conversation(20)
    history = engine.compress(history)
    incoming = {"role": "user", "content": "file_3"}
    ask: dict[str, Any] = {
        "conversation_messages": history,
        "incoming_message": incoming,
        "budget_tokens": 3_000,
    }
    first = engine.select_context([*history, incoming], **ask)
    assert first is not None
    first[-1]["cache_control"] = {"type": "ephemeral"}  # what agents do to the request
    first[0]["content"] = "edited"
    second = engine.select_context([*history, incoming], **ask)
    assert second is not None
    assert all("cache_control" not in m for m in second)
    assert second[0]["content"] != "edited"


HUGE = "0123456789abcdef" * 655_360  # 10 MiB of tool output


@pytest.mark.parametrize("tool", ["lcm_describe", "lcm_expand"])
def test_a_huge_message_comes_back_in_pages_under_the_cap(
    make_lcm: Callable[..., LCMEngine], tool: str
) -> None:
    engine = make_lcm(context_length=1_000_000)
    history = sample_conversation(1)
    history[3] = {**history[3], "content": HUGE}
    engine.on_turn_complete(history)
    found = sql(engine).execute("SELECT id FROM messages WHERE role = 'tool'").fetchone()[0]
    text, page, pages = "", 0, None
    while page is not None:
        raw = engine.handle_tool_call(
            tool, {"id": f"M{found}", "max_tokens": 200_000, "page": page}
        )
        assert len(raw) <= 200_000 * 4 + 400  # the cap, in the estimate's characters
        result = json.loads(raw)
        text += result["content_page"]
        pages = result["pages"]
        page = result["next_page"]
    assert text == HUGE and pages is not None and pages >= len(HUGE) // (200_000 * 4)
    past = json.loads(engine.handle_tool_call(tool, {"id": f"M{found}", "page": 10_000}))
    assert "does not exist" in past["error"]


def test_a_huge_message_under_a_summary_is_shown_by_its_first_page(
    make_lcm: Callable[..., LCMEngine],
) -> None:
    engine = make_lcm(context_length=4_000)
    history = sample_conversation(12)
    history[3] = {**history[3], "content": "x" * 400_000}
    engine.compress(history)
    summary = json.loads(engine.handle_tool_call("lcm_describe", {}))["active_context"][
        "summaries"
    ][0]
    page: int | None = 0
    paged = []
    while page is not None:
        raw = engine.handle_tool_call(
            "lcm_expand", {"id": summary, "max_tokens": 1_000, "page": page}
        )
        assert len(raw) <= 1_000 * 4 + 400
        result = json.loads(raw)
        paged += [m for m in result["messages"] if "content_page" in m]
        page = result["next_page"]
    (shown,) = paged
    assert shown["next_page"] == 1 and "page=1 goes on" in shown["note"]


def test_a_huge_message_with_more_than_text_is_paged_whole_as_json(
    make_lcm: Callable[..., LCMEngine],
) -> None:
    engine = make_lcm(context_length=1_000_000)
    history = sample_conversation(1)
    history[1] = {"role": "user", "content": [{"type": "text", "text": "y" * 50_000}, "stray"]}
    engine.on_turn_complete(history)
    text, page = "", 0
    while page is not None:
        args = {"id": "M2", "max_tokens": 2_000, "page": page}
        result = json.loads(engine.handle_tool_call("lcm_expand", args))
        text += result["content_page"]
        page = result["next_page"]
    assert json.loads(text) == history[1]  # nothing dropped, the stray part included

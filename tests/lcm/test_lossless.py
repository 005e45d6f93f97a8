"""Lossless: after any number of compactions every message is stored verbatim and reachable."""

from __future__ import annotations

import json
import shutil
import tempfile
from collections.abc import Callable
from typing import Any

from hermes_engine_lcm import LCMEngine
from hermes_engine_lcm.store.keys import UNNAMED_SESSION
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from tests.lcm.sql import active, sql

#: Any text, and often the same few words: turns repeated word for word are
#: where telling new messages from handed-back ones is hardest.
text = st.one_of(
    st.text(alphabet=st.characters(codec="utf-8"), min_size=1, max_size=800),
    st.sampled_from(["ok", "sure", "ok " * 150]),
)


@st.composite
def turns(draw: st.DrawFn) -> list[list[dict[str, Any]]]:
    """Batches of messages, each batch one turn: an ask, maybe tool rounds, a reply."""
    batches = []
    for n in range(draw(st.integers(4, 25))):
        batch: list[dict[str, Any]] = [{"role": "user", "content": draw(text)}]
        for k in range(draw(st.integers(0, 2))):
            ids = [f"c{n}_{k}_{i}" for i in range(draw(st.integers(1, 3)))]
            batch.append(
                {
                    "role": "assistant",
                    "content": None,
                    "tool_calls": [
                        {"id": i, "type": "function", "function": {"name": "t", "arguments": "{}"}}
                        for i in ids
                    ],
                }
            )
            batch += [{"role": "tool", "tool_call_id": i, "content": draw(text)} for i in ids]
        batch.append({"role": "assistant", "content": draw(text)})
        batches.append(batch)
    return batches


def reachable(engine: LCMEngine) -> set[int]:
    """Message ids reachable from the active context through the tools."""
    found = {i.ref_id for i in active(engine) if i.kind == "message"}
    overview = json.loads(engine.handle_tool_call("lcm_describe", {}))
    for summary in overview["active_context"]["summaries"]:
        page = 0
        while page is not None:
            result = json.loads(
                engine.handle_tool_call("lcm_expand", {"id": summary, "page": page})
            )
            found |= {int(m["id"][1:]) for m in result["messages"]}
            page = result["next_page"]
    return found


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    turns(),
    st.integers(200, 2_500),
    st.integers(1, 12),
    st.integers(100, 1_500),
    st.integers(2, 4),
    st.integers(1, 6),
)
def test_every_message_survives_any_number_of_compactions(
    new_store: Callable[[], dict[str, Any]],
    batches: list[list[dict[str, Any]]],
    context_length: int,
    fresh_tail: int,
    chunk: int,
    fanin: int,
    every: int,
) -> None:
    home = tempfile.mkdtemp(prefix="lcm-lossless-")
    settings_ = {
        "fresh_tail_messages": fresh_tail,
        "leaf_chunk_tokens": chunk,
        "condensation_fanin": fanin,
        "max_passes": 50,
        **new_store(),
    }
    engine = LCMEngine({"lcm": settings_}, hermes_home=home)
    engine.update_model("model", context_length)
    try:
        check(engine, batches, every)
    finally:
        engine.close()
        shutil.rmtree(home, ignore_errors=True)


def check(engine: LCMEngine, batches: list[list[dict[str, Any]]], every: int) -> None:
    history: list[dict[str, Any]] = [{"role": "system", "content": "system prompt"}]
    visible = list(history)
    for number, batch in enumerate(batches):
        history += batch
        visible += batch
        if number % every == 0:
            visible = engine.compress(visible)
        else:
            engine.on_turn_complete(visible)
    engine.compress(visible)
    db = sql(engine)
    rows = db.execute(
        "SELECT id, body FROM messages WHERE session_id = ? ORDER BY seq", (UNNAMED_SESSION,)
    ).fetchall()
    assert [json.loads(body) for _, body in rows] == history  # verbatim, once, in order
    assert reachable(engine) == {message_id for message_id, _ in rows}
    folded = db.execute("SELECT COUNT(*) FROM summaries").fetchone()[0]
    event("compacted" if folded else "nothing folded")

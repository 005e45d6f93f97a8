"""Compaction: leaf summaries, condensation, escalation, bounds; summaries name what they cover."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable

from hermes_engine_lcm import LCMEngine
from hermes_engine_lcm.compaction import compact
from hermes_engine_lcm.render import SUMMARY_PREFIX
from hermes_engine_lcm.store.keys import UNNAMED_SESSION
from pytest_httpserver import HTTPServer
from werkzeug import Request, Response

from hermes_core import validate_messages
from hermes_core._tokens import estimate_tokens
from hermes_core.llm import AuxiliaryLLMConfig, ChatClient
from hermes_core.testing._conversations import sample_conversation
from tests.lcm.sql import active, sql


def summaries(engine: LCMEngine) -> list[tuple[int, int, str, str]]:
    return list(sql(engine).execute("SELECT id, depth, level, text FROM summaries ORDER BY id"))


def test_leaf_passes_fold_the_oldest_messages_and_keep_the_fresh_tail(
    make_lcm: Callable[..., LCMEngine],
) -> None:
    engine = make_lcm(context_length=8_000, fresh_tail_messages=8)
    history = sample_conversation(40)
    active = engine.compress(history)
    assert validate_messages(active) == []
    assert active[0] == history[0]  # the system prompt is never folded
    assert active[1]["content"].startswith(SUMMARY_PREFIX)
    assert active[-8:] == history[-8:]
    rows = summaries(engine)
    assert rows and all(level == "truncated" for _, _, level, _ in rows)
    assert any(depth == 0 for _, depth, _, _ in rows)
    assert engine.compression_count == 1 and engine.last_prompt_tokens == -1


def test_every_summary_names_what_it_covers_and_how_to_expand_it(
    make_lcm: Callable[..., LCMEngine],
) -> None:
    engine = make_lcm(context_length=8_000)
    engine.compress(sample_conversation(40))
    for summary_id, _, _, text in summaries(engine):
        assert re.search(r"Covers M\d+(-M\d+)?(, M\d+(-M\d+)?)* \(\d+ messages\)\.", text)
        assert text.endswith(f'lcm_expand(id="S{summary_id}").')


def test_summaries_condense_fanin_at_a_time_into_the_next_depth(
    make_lcm: Callable[..., LCMEngine],
) -> None:
    engine = make_lcm(
        context_length=4_000, leaf_chunk_tokens=300, condensation_fanin=3, max_passes=200
    )
    engine.compress(sample_conversation(60))
    depths = [depth for _, depth, _, _ in summaries(engine)]
    assert 1 in depths
    db = sql(engine)
    for (summary_id,) in db.execute("SELECT id FROM summaries WHERE depth = 1"):
        children = db.execute(
            "SELECT kind FROM summary_children WHERE summary_id = ?", (summary_id,)
        ).fetchall()
        assert children == [("summary",)] * 3


def test_nothing_is_summarised_without_being_pruned_from_the_context(
    make_lcm: Callable[..., LCMEngine],
) -> None:
    engine = make_lcm(
        context_length=4_000, leaf_chunk_tokens=300, condensation_fanin=3, max_passes=200
    )
    engine.compress(sample_conversation(60))
    db = sql(engine)
    in_context = set(db.execute("SELECT kind, ref_id FROM context_items"))
    folded = set(db.execute("SELECT kind, child_id FROM summary_children"))
    assert not in_context & folded
    tops = set(db.execute("SELECT 'summary', id FROM summaries")) - folded
    assert tops <= in_context  # every summary is in the context or under another one


def _llm(server: HTTPServer, answers: list[str]) -> ChatClient:
    replies = iter(answers)

    def handler(request: Request) -> Response:
        text = next(replies, answers[-1])
        return Response(
            json.dumps({"choices": [{"message": {"content": text}}]}),
            content_type="application/json",
        )

    server.expect_request("/v1/chat/completions").respond_with_handler(handler)
    config = AuxiliaryLLMConfig(base_url=server.url_for("/v1"), model="s", max_retries=0)
    return ChatClient(config, env={})


def test_summaries_escalate_until_smaller_than_their_input(
    make_lcm: Callable[..., LCMEngine], httpserver: HTTPServer
) -> None:
    too_long = "blah " * 5_000
    llm = _llm(httpserver, [too_long, "- short bullet summary of the turns"])
    engine = make_lcm(context_length=8_000, llm=llm, max_passes=1)
    engine.compress(sample_conversation(40))
    ((_, _, level, text),) = summaries(engine)
    assert level == "bullets"
    assert text.startswith("- short bullet summary of the turns")


def test_a_good_detailed_summary_is_used_first(
    make_lcm: Callable[..., LCMEngine], httpserver: HTTPServer
) -> None:
    llm = _llm(httpserver, ["Detailed: the agent read files 0 to 20."])
    engine = make_lcm(context_length=8_000, llm=llm, max_passes=1)
    engine.compress(sample_conversation(40))
    ((_, _, level, text),) = summaries(engine)
    assert (level, text.split("\n")[0]) == ("detailed", "Detailed: the agent read files 0 to 20.")


def test_a_failing_llm_falls_back_to_truncation(
    make_lcm: Callable[..., LCMEngine], httpserver: HTTPServer
) -> None:
    httpserver.expect_request("/v1/chat/completions").respond_with_data("down", status=500)
    config = AuxiliaryLLMConfig(base_url=httpserver.url_for("/v1"), model="s", max_retries=0)
    engine = make_lcm(context_length=8_000, llm=ChatClient(config, env={}), max_passes=1)
    engine.compress(sample_conversation(40))
    assert [level for _, _, level, _ in summaries(engine)] == ["truncated"]


def test_passes_are_capped(make_lcm: Callable[..., LCMEngine]) -> None:
    engine = make_lcm(context_length=4_000, leaf_chunk_tokens=200, max_passes=3)
    engine.compress(sample_conversation(60))
    assert len(summaries(engine)) == 3


def test_a_pass_past_its_deadline_commits_nothing(make_lcm: Callable[..., LCMEngine]) -> None:
    engine = make_lcm(context_length=4_000)
    history = sample_conversation(40)
    engine.on_turn_complete(history)
    before = active(engine)
    result = engine.compress(history, deadline=time.monotonic() - 1)
    assert summaries(engine) == []
    assert active(engine) == before
    assert result == history


def test_the_fresh_tail_is_bounded_in_tokens_so_a_pass_frees_room(
    make_lcm: Callable[..., LCMEngine],
) -> None:
    engine = make_lcm(context_length=2_000, fresh_tail_messages=40)
    history = sample_conversation(20)
    active = engine.compress(history)
    tail = len(active) - next(i for i, m in enumerate(active) if i and m in history[1:])
    assert tail < 40  # 40 messages would be most of the window: the token share wins
    assert estimate_tokens(active) <= engine.threshold_tokens
    assert engine.should_compress_info(estimate_tokens(active)) == (False, None)


def test_a_single_message_bigger_than_the_tail_budget_is_reported_not_looped_on(
    make_lcm: Callable[..., LCMEngine],
) -> None:
    engine = make_lcm(context_length=2_000)
    history = [*sample_conversation(5), {"role": "user", "content": "x" * 8_000}]
    engine.compress(history)
    assert engine.should_compress_info(1_900) == (False, "tail_exceeds_budget")


def test_compaction_stops_when_nothing_is_left_to_fold(make_lcm: Callable[..., LCMEngine]) -> None:
    engine = make_lcm()
    engine.on_turn_complete(sample_conversation(2))
    report = compact(
        engine.database, UNNAMED_SESSION, engine.settings, None, 0, time.monotonic() + 5
    )
    assert (report.passes, report.stopped) == (0, "nothing_left")


def test_the_active_context_keeps_tool_pairs_whole(make_lcm: Callable[..., LCMEngine]) -> None:
    for tail in range(1, 12):
        engine = make_lcm(context_length=6_000, fresh_tail_messages=tail, leaf_chunk_tokens=250)
        active = engine.compress(sample_conversation(30))
        assert validate_messages(active) == [], tail
        sql(engine).execute("DELETE FROM context_items")
        sql(engine).execute("DELETE FROM summary_children")
        sql(engine).execute("DELETE FROM summaries")
        sql(engine).execute("DELETE FROM messages")
        sql(engine).execute("DELETE FROM sessions")


def test_an_llm_answering_401_is_asked_once_then_left_alone_for_its_cooldown(
    make_lcm: Callable[..., LCMEngine], httpserver: HTTPServer
) -> None:
    httpserver.expect_request("/v1/chat/completions").respond_with_data("denied", status=401)
    config = AuxiliaryLLMConfig(base_url=httpserver.url_for("/v1"), model="s", max_retries=2)
    now = [1_000.0]  # a clock that stands still: the cooldown reads 60 however slow the run
    llm = ChatClient(config, env={})
    engine = make_lcm(context_length=4_000, llm=llm, clock=lambda: now[0], leaf_chunk_tokens=300)
    history = engine.compress(sample_conversation(40))  # many summaries, one pass
    engine.compress(history + sample_conversation(40)[1:])  # and a second pass
    assert len(httpserver.log) == 1
    assert len(summaries(engine)) > 5
    assert {level for _, _, level, _ in summaries(engine)} == {"truncated"}
    assert engine.get_status()["llm_cooldown_seconds"] == 60
    now[0] += 59.5
    assert engine.get_status()["llm_cooldown_seconds"] == 1
    now[0] += 0.5
    assert engine.get_status()["llm_cooldown_seconds"] == 0


def test_lcm_never_returns_more_than_it_was_given(make_lcm: Callable[..., LCMEngine]) -> None:
    from hermes_core._tokens import estimate_tokens

    engine = make_lcm(context_length=6_000)
    history = sample_conversation(30)
    engine.on_turn_complete(history)  # the store holds all of it
    rebuilt = [history[0], *history[-6:]]  # the host dropped the old turns itself
    result = engine.compress(rebuilt)
    assert estimate_tokens(result) <= estimate_tokens(rebuilt)
    # and the store still has every message, and ingest goes on from there
    engine.on_turn_complete([*result, {"role": "user", "content": "next"}])
    rows = sql(engine).execute("SELECT COUNT(*) FROM messages").fetchone()
    assert rows[0] == len(history) + 1

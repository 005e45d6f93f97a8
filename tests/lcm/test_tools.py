"""lcm_grep, lcm_describe, lcm_expand: literal queries, isolation, paging, JSON errors."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from hermes_engine_lcm import LCMEngine

from hermes_core.testing._conversations import sample_conversation

FACTS = {
    2: "The deployment password hint is 'blue heron' (see ops/runbook.md).",
    5: "数据库迁移计划在星期五执行",
    9: 'Weird text: "quoted" NEAR OR AND * (unbalanced [brackets] émoji 🚀',
}


def call(engine: LCMEngine, name: str, session: str | None = None, **args: Any) -> Any:
    return json.loads(engine.handle_tool_call(name, args, session_id=session))


@pytest.fixture
def engine(make_lcm: Callable[..., LCMEngine]) -> LCMEngine:
    engine = make_lcm(context_length=6_000)
    engine.on_session_start("s1")
    engine.compress(sample_conversation(30, facts=FACTS))
    return engine


def ids(result: dict[str, Any]) -> list[str]:
    return [r["id"] for r in result["results"]]


def test_grep_finds_a_fact_folded_into_a_summary(engine: LCMEngine) -> None:
    result = call(engine, "lcm_grep", query="blue heron")
    (hit,) = [r for r in result["results"] if r["id"].startswith("M")]
    assert "blue heron" in hit["snippet"]
    assert hit["folded_into"].startswith("S")


def test_grep_finds_cjk_text(engine: LCMEngine) -> None:
    assert ids(call(engine, "lcm_grep", query="迁移计划", scope="messages")) == ["M22"]
    assert ids(call(engine, "lcm_grep", query="星期", scope="messages")) == ["M22"]


@pytest.mark.parametrize(
    "query",
    [
        '"quoted"',
        "NEAR",
        "OR",
        "AND",
        "*",
        "(unbalanced",
        "[brackets]",
        "émoji",
        "🚀",
        '" OR "1"="1',
        "NEAR(a b)",
        "col:term",
        "^start",
        "a AND (b OR",
        "\\",
        "%",
        "_",
    ],
)
def test_queries_are_text_never_syntax(engine: LCMEngine, query: str) -> None:
    result = call(engine, "lcm_grep", query=query)
    assert "error" not in result
    if query in ('"quoted"', "NEAR", "(unbalanced", "[brackets]", "émoji", "🚀"):
        assert "M38" in ids(result)


def test_scope_and_sort(engine: LCMEngine) -> None:
    summaries = call(engine, "lcm_grep", query="file", scope="summaries", limit=50)
    assert summaries["results"] and all(r["id"].startswith("S") for r in summaries["results"])
    recent = call(engine, "lcm_grep", query="fine", scope="messages", sort="recency", limit=3)
    numbers = [int(i[1:]) for i in ids(recent)]
    assert numbers == sorted(numbers, reverse=True)


def test_describe_gives_an_overview_or_one_node(engine: LCMEngine) -> None:
    overview = call(engine, "lcm_describe")
    assert overview["stored_messages"] == len(sample_conversation(30))
    assert overview["active_context"]["summaries"]
    summary_id = overview["active_context"]["summaries"][0]
    node = call(engine, "lcm_describe", id=summary_id)
    while node["covers"][0].startswith("S"):  # down the DAG to a leaf, which covers messages
        assert node["depth"] > 0
        node = call(engine, "lcm_describe", id=node["covers"][0])
    assert node["depth"] == 0 and node["covers"][0].startswith("M")
    assert node["text"].endswith(f'lcm_expand(id="{node["id"]}").')
    message = call(engine, "lcm_describe", id="M1")
    assert message["message"] == sample_conversation(30)[0]


def test_expand_returns_the_originals_in_pages(engine: LCMEngine) -> None:
    summary_id = call(engine, "lcm_describe")["active_context"]["summaries"][0]
    first = call(engine, "lcm_expand", id=summary_id, max_tokens=300)
    assert first["pages"] > 1 and first["next_page"] == 1
    pages = [first] + [
        call(engine, "lcm_expand", id=summary_id, max_tokens=300, page=p)
        for p in range(1, first["pages"])
    ]
    originals = [m["message"] for page in pages for m in page["messages"]]
    assert len(originals) == first["total_messages"]
    history = sample_conversation(30, facts=FACTS)
    start = history.index(originals[0])
    assert originals == history[start : start + len(originals)]


@pytest.mark.parametrize(
    ("name", "args", "error"),
    [
        ("lcm_grep", {}, "'query' must be a non-empty string"),
        ("lcm_grep", {"query": 5}, "'query' must be a non-empty string"),
        ("lcm_grep", {"query": "x" * 5_000}, "at most 2000"),
        ("lcm_grep", {"query": "x", "limit": 0}, "'limit' must be a whole number from 1 to 100"),
        ("lcm_grep", {"query": "x", "scope": "all"}, "'scope' must be one of"),
        ("lcm_describe", {"id": "S999999"}, "no node S999999 in this conversation"),
        ("lcm_describe", {"id": "banana"}, "'id' must look like M12 or S3"),
        ("lcm_expand", {"id": ["S1"]}, "'id' must look like M12 or S3"),
        ("lcm_expand", {"id": "S1", "page": 999}, "page 999 does not exist"),
        ("lcm_frobnicate", {}, "Unknown context engine tool: lcm_frobnicate"),
    ],
)
def test_bad_calls_get_clear_json_errors(
    engine: LCMEngine, name: str, args: dict[str, Any], error: str
) -> None:
    assert error in call(engine, name, **args)["error"]


def test_non_object_arguments_are_a_json_error(engine: LCMEngine) -> None:
    answer = json.loads(engine.handle_tool_call("lcm_grep", ["not", "a", "dict"]))  # type: ignore[arg-type]
    assert "must be a JSON object" in answer["error"]


def test_sessions_never_see_each_other(make_lcm: Callable[..., LCMEngine]) -> None:
    engine = make_lcm(context_length=6_000)
    engine.compress(sample_conversation(10, facts={3: "alpha secret orchid"}), session_id="a")
    engine.compress(sample_conversation(10, facts={3: "beta secret tulip"}), session_id="b")
    assert all(
        "tulip" not in r["snippet"]
        for r in call(engine, "lcm_grep", "a", query="secret")["results"]
    )
    assert call(engine, "lcm_grep", "a", query="tulip")["results"] == []
    b_node = call(engine, "lcm_grep", "b", query="tulip")["results"][0]["id"]
    assert "no node" in call(engine, "lcm_describe", "a", id=b_node)["error"]
    assert "no node" in call(engine, "lcm_expand", "a", id=b_node)["error"]


def test_cross_session_search_is_opt_in(make_lcm: Callable[..., LCMEngine]) -> None:
    engine = make_lcm(cross_session_search=True)
    engine.on_turn_complete(sample_conversation(3, facts={1: "alpha orchid"}), session_id="a")
    engine.on_turn_complete(sample_conversation(3, facts={1: "beta orchid"}), session_id="b")
    hits = call(engine, "lcm_grep", "a", query="orchid")["results"]
    assert sorted(h["session_id"] for h in hits) == ["a", "b"]

"""lcm's leaf summaries prepared ahead, through a threaded chat server on 127.0.0.1 that
holds the first answer until the test releases it: the preparation writes nothing, and
the pass at the threshold folds with what was prepared, asking the summariser nothing."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from hermes_core import ContextHost, estimate_tokens, validate_messages
from hermes_core.testing import host_for
from hermes_core.testing._conversations import agent_turn, sample_conversation
from tests.servers import Summariser


@pytest.fixture
def summariser() -> Iterator[Summariser]:
    made = Summariser({1})
    yield made
    made.close()


def _host(make_lcm: Callable[..., Any], summariser: Summariser) -> ContextHost:
    engine = make_lcm(context_length=20_000, llm=summariser.llm, leaf_chunk_tokens=600)
    host = host_for(engine, config={"compression": {"prepare_at_share": 0.8}})
    host.update_model("model", 20_000)
    return host


def test_the_pass_folds_with_the_summaries_prepared_and_asks_nothing(
    make_lcm: Callable[..., Any], summariser: Summariser
) -> None:
    host = _host(make_lcm, summariser)
    history = sample_conversation(2)
    stored_summaries_while_prepared = None
    for n in range(2, 400):
        history = history + agent_turn(n)
        tokens = estimate_tokens(history)
        host.record_usage({"prompt_tokens": tokens, "completion_tokens": 50})
        if host.should_compress(tokens):
            assert host.wait_for_preparations(60)
            asked = len(summariser.requests)
            message = host.compaction_status_message("compress", "Compacting context")
            result = host.compress(history, tokens)
            break
        host.turn_complete(history)
        if host.status()["preparations_started"] and not summariser.release.is_set():
            summariser.release.set()  # the summariser answers a few turns after it was asked
            assert host.wait_for_preparations(60)
            assert host.status()["preparations_done"] >= 1
            stored_summaries_while_prepared = host.status()["summaries"]
    else:
        raise AssertionError("the threshold was never reached")
    assert stored_summaries_while_prepared == 0  # preparing folds nothing
    assert asked >= 1 and len(summariser.requests) == asked  # the pass asked nothing
    assert message == "Compacting context (summaries prepared ahead: no wait)"
    status = host.status()
    assert status["passes_compressed"] == 1 and status["prepared_summaries_used"] >= 1
    assert status["summaries"] >= 1
    assert validate_messages(result) == []
    assert estimate_tokens(result) < host.engine.threshold_tokens
    host.close()


def test_a_fold_not_prepared_is_summarised_at_the_pass_as_before(
    make_lcm: Callable[..., Any], summariser: Summariser
) -> None:
    host = _host(make_lcm, summariser)
    summariser.release.set()
    history = sample_conversation(2)
    for n in range(2, 400):
        history = history + agent_turn(n)
        tokens = estimate_tokens(history)
        host.record_usage({"prompt_tokens": tokens, "completion_tokens": 50})
        if host.should_compress(tokens):
            result = host.compress(history, tokens)  # no turn_complete: nothing prepared
            break
    assert host.status()["preparations_started"] == 0
    assert len(summariser.requests) >= 1 and host.status()["prepared_summaries_used"] == 0
    assert validate_messages(result) == []
    assert estimate_tokens(result) < host.engine.threshold_tokens
    host.close()


def test_a_cached_summary_is_given_only_to_the_text_and_bounds_it_was_made_for() -> None:
    from hermes_engine_lcm.prepared import SummaryCache, cached_summary

    cache, calls = SummaryCache(), []

    def summarize(llm: Any, text: str, *args: Any, **kwargs: Any) -> tuple[str, str]:
        calls.append((text, args[:2], kwargs.get("focus")))
        return f"summary of {text}", "detailed"

    def ask(text: str, budget: int = 100, focus: str | None = None, **kw: Any) -> Any:
        llm: Any = object()  # never called: summarize stands in for it
        return cached_summary(cache, summarize, llm, text, budget, 20, None, 20, focus, **kw)

    assert ask("a") == ask("a") == ("summary of a", "detailed")
    assert ask("b") == ("summary of b", "detailed")
    ask("a", budget=99)
    ask("a", focus="the budget")
    assert [c[0] for c in calls] == ["a", "b", "a", "a"]  # each new text or bound asks anew
    assert ask("c", ready_only=True) is None and len(calls) == 4  # not ready: no wait
    assert (cache.hits, cache.misses) == (1, 5)


def test_the_cache_keeps_the_most_recently_used_summaries_past_its_bound() -> None:
    from hermes_engine_lcm.prepared import SummaryCache

    cache = SummaryCache(entries=3)
    keys = [SummaryCache.key(f"text {n}", 10, 5, 5, None) for n in range(5)]
    for n, key in enumerate(keys[:3]):
        cache.put(key, (f"s{n}", "detailed"))
    assert cache.get(keys[0]) == ("s0", "detailed")  # used: kept over keys[1]
    cache.put(keys[3], ("s3", "detailed"))
    cache.put(keys[4], ("s4", "detailed"))
    assert len(cache) == 3
    assert [cache.get(k) is not None for k in keys] == [True, False, False, True, True]

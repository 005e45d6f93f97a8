"""What doctor says Hermes Agent will run: one sentence a user can act on, for each reason."""

from __future__ import annotations

import pytest

from hermes_core.hermes_agent._forecast import HermesForecast

REASONS = ["configured", "folder", "plugin", "not_found", "other_plugin_first", "not_copyable"]


@pytest.mark.parametrize("why", REASONS)
def test_each_reason_is_a_whole_sentence_naming_the_engine(why: str) -> None:
    said = HermesForecast(runs="lcm", configured="lcm", why=why, detail="x").explain()
    assert said != why  # every reason has its own sentence
    assert said.split()[-1] not in {"it", "and", "or", "copies", "the", "a"}  # none stops short
    if why != "configured":
        assert "'lcm'" in said


def test_an_enabled_plugin_says_hermes_can_copy_the_engine_for_each_agent() -> None:
    said = HermesForecast(runs="lcm", configured="lcm", why="plugin").explain()
    assert said == (
        "an enabled plugin registers 'lcm' before any other engine, and Hermes can copy it "
        "for each agent"
    )

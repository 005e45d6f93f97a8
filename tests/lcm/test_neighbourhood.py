"""Ranking a turn by the company it keeps: each ranked message's neighbours rank near it."""

from __future__ import annotations

from hermes_engine_lcm.neighbourhood import REACH, by_neighbourhood, reach_of
from hypothesis import given
from hypothesis import strategies as st

#: One session of 300 messages: message id 1000 + seq sits at seq.
SEQ_OF = {1000 + seq: seq for seq in range(300)}
ID_AT = {seq: message for message, seq in SEQ_OF.items()}


def test_an_unranked_turn_next_to_the_best_hit_comes_before_a_lone_weak_hit() -> None:
    # 1290: ranked 91st, far from every hit (a hit's own rank counts twice: one ranked
    # within the first 60 or so stays ahead of the best hit's neighbours)
    ranked = [1050, *range(1100, 1280, 2), 1290]
    order = by_neighbourhood(ranked, SEQ_OF, ID_AT)
    assert order.index(1052) < order.index(1290)  # never ranked, but two turns from 1050
    assert order.index(1100) < order.index(1052)  # the second hit stays ahead of it


def test_the_neighbourhood_reaches_its_turns_and_no_further() -> None:
    order = by_neighbourhood([1050], SEQ_OF, ID_AT)
    near = [1050 + step for step in range(-REACH, REACH + 1)]
    assert sorted(order) == near
    assert 1050 + REACH + 1 not in order


def test_a_position_without_a_message_and_a_message_without_a_position_are_skipped() -> None:
    id_at = {seq: m for seq, m in ID_AT.items() if seq != 51}  # seq 51: another session's
    assert sorted(by_neighbourhood([1050, 7], SEQ_OF, id_at)) == [7, 1048, 1049, 1050, 1052]


def test_reach_of_lists_the_positions_around_and_not_the_ones_given() -> None:
    assert reach_of([10, 11]) == [8, 9, 12, 13]
    assert reach_of([]) == []


@given(st.lists(st.integers(1000, 1299), unique=True, max_size=300))
def test_every_ranked_message_and_its_neighbours_come_out_once(ranked: list[int]) -> None:
    order = by_neighbourhood(ranked, SEQ_OF, ID_AT)
    wanted = set(ranked) | {ID_AT[s] for s in reach_of([SEQ_OF[m] for m in ranked]) if s in ID_AT}
    assert len(order) == len(set(order)) and set(order) == wanted
    unranked = [m for m in order if m not in ranked]
    if ranked and unranked:  # a neighbour is never ahead of the hit that brought it
        best_near = {
            m: min(ranked.index(h) for h in ranked if 0 < abs(h - m) <= REACH) for m in unranked
        }
        assert all(order.index(m) > order.index(ranked[best_near[m]]) for m in unranked)

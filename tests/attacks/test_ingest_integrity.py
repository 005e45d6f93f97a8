"""Attacks on what LCM stores: lists handed out of order, older than the store, by two hosts
of one session. Every message must be stored once, however the lists arrive."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from hermes_engine_lcm import LCMEngine

from hermes_core import ContextHost
from tests.lcm.sql import sql


def _turns(count: int, start: int = 0) -> list[dict[str, str]]:
    return [
        {"role": "user" if i % 2 == 0 else "assistant", "content": f"message {i} " + "word " * 30}
        for i in range(start, start + count)
    ]


def _rows(host: ContextHost) -> tuple[int, int]:
    """Rows stored, and distinct messages among them."""
    assert isinstance(host.engine, LCMEngine)
    rows, distinct = (
        sql(host.engine).execute("SELECT COUNT(*), COUNT(DISTINCT fp) FROM messages").fetchone()
    )
    return int(rows), int(distinct)


def test_compress_handed_a_list_older_than_the_store_never_stores_a_message_twice(
    make_lcm_host: Callable[..., ContextHost],
) -> None:
    host = make_lcm_host()
    host.start_session("s")
    history = [{"role": "system", "content": "agent"}, *_turns(22)]
    host.turn_complete(history)
    host.compress(history[:18])  # the agent's copy from a few turns back
    host.turn_complete([*history, {"role": "user", "content": "and now?"}])
    assert _rows(host) == (24, 24)


@pytest.mark.parametrize("seed", [1, 2])
def test_two_hosts_of_one_session_compacting_stale_lists_store_each_message_once(
    make_lcm_host: Callable[..., ContextHost], seed: int
) -> None:
    """Gateway workers answer turns of one conversation in turn; each hands the whole
    conversation after its turn, and compacts whatever list it had kept, often an older one."""
    hosts = [make_lcm_host(context_length=2_000), make_lcm_host(context_length=2_000)]
    for host in hosts:
        host.start_session("shared")
    rng = random.Random(seed)
    conversation: list[dict[str, str]] = [{"role": "system", "content": "agent"}]
    passes = 0
    for turn, (ask, answer) in enumerate(zip(*[iter(_turns(120))] * 2, strict=True)):
        host = hosts[rng.randrange(2)]
        host.select_context([*conversation, ask], incoming_message=ask)
        conversation += [ask, answer]
        host.turn_complete(conversation)
        if turn % 3 == 0:
            host.compress(conversation[: len(conversation) - 2 * rng.randrange(4)])
            passes += 1
    assert passes == 20
    assert _rows(hosts[0]) == (121, 121)

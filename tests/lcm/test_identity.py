"""A message's identity is what the model sees: keys a host adds never create a row, and a
list is matched to the stored conversation by position."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

from hermes_engine_lcm import LCMEngine

from hermes_core.testing._conversations import agent_turn, sample_conversation
from tests.lcm.sql import sql, stored


def _bookkept(messages: list[dict[str, Any]], start: float = 1764600000.0) -> list[dict[str, Any]]:
    """``messages`` as Hermes Agent hands them back: read from its state.db (``timestamp``)
    and saved (``_db_persisted``), keys in another order."""
    out = []
    for n, message in enumerate(messages):
        back = {"timestamp": start + n, **dict(reversed(list(message.items())))}
        back["_db_persisted"] = True
        out.append(back)
    return out


def test_keys_a_host_adds_never_create_a_row(make_lcm: Callable[..., LCMEngine]) -> None:
    engine = make_lcm()
    history = sample_conversation(20)
    engine.on_turn_complete(copy.deepcopy(history))
    turn = agent_turn(20)
    engine.on_turn_complete(_bookkept(history) + turn)
    assert len(stored(engine)) == len(history) + len(turn)


def test_a_resumed_list_adds_only_its_new_messages_a_repeated_question_included(
    make_lcm: Callable[..., LCMEngine],
) -> None:
    engine = make_lcm()
    engine.on_session_start("default")
    question = {"role": "user", "content": "what did we decide about the cache?"}
    history = [*sample_conversation(10), question, {"role": "assistant", "content": "LRU."}]
    engine.on_turn_complete(copy.deepcopy(history))
    engine.close()
    resumed = make_lcm()  # a new process: the resumed history comes back from Hermes' state.db
    resumed.on_session_start("default")
    asked_again = [*_bookkept(history), dict(question)]
    resumed.on_turn_complete(asked_again)
    rows = stored(resumed)
    assert len(rows) == len(history) + 1
    assert rows[-1]["content"] == question["content"]  # the repeat is a new message


def test_a_rebuilt_list_with_gaps_adds_what_follows_its_known_part(
    make_lcm: Callable[..., LCMEngine],
) -> None:
    engine = make_lcm()
    history = sample_conversation(10)
    engine.on_turn_complete(copy.deepcopy(history))
    rebuilt = [history[0], *history[5:]]  # a host that dropped some turns, then goes on
    rebuilt.append(dict(history[-2]))  # a user message said again verbatim
    engine.on_turn_complete(rebuilt)
    rows = stored(engine)
    assert len(rows) == len(history) + 1 and rows[-1] == history[-2]


def test_a_store_of_the_previous_fingerprint_scheme_is_brought_up_to_date(
    make_lcm: Callable[..., LCMEngine],
) -> None:
    engine = make_lcm()
    history = sample_conversation(10)
    engine.on_turn_complete(copy.deepcopy(history))
    db = sql(engine)
    db.execute("UPDATE messages SET fp = 'old-scheme'")  # as the earlier version wrote them
    db.execute("UPDATE lcm_meta SET value = 'whole-message' WHERE key = 'fingerprints'")
    engine.close()
    reopened = make_lcm()
    turn = agent_turn(10)
    reopened.on_turn_complete(_bookkept(history) + turn)
    assert len(stored(reopened)) == len(history) + len(turn)
    scheme = sql(reopened).execute("SELECT value FROM lcm_meta WHERE key = 'fingerprints'")
    assert scheme.fetchone()[0] == "provider-view-1"
    assert json.loads(json.dumps(stored(reopened)[0])) == history[0]


def test_asks_that_differ_after_a_compaction_store_only_each_ask(
    make_lcm: Callable[..., LCMEngine],
) -> None:
    """An agent keeps what compress gave back and asks on (a retry, an edited message, a
    question it did not keep): the system prompt at the head of that list was stored
    before everything the recent-messages window reaches (a history past RECENT, 2,000),
    which once made the whole compacted list look new and stored it again."""
    engine = make_lcm(context_length=60_000, leaf_chunk_tokens=4_000)
    history = sample_conversation(900)  # about 3,600 messages
    engine.on_turn_complete(copy.deepcopy(history))
    kept = engine.compress(copy.deepcopy(history), force=True)
    assert kept[0]["role"] == "system" and len(kept) < len(history)
    before = len(stored(engine))
    for n in range(3):
        ask = {"role": "user", "content": f"and what about module {n}?"}
        engine.select_context(
            [*kept, ask], conversation_messages=kept, incoming_message=ask, budget_tokens=8_000
        )
    rows = stored(engine)
    assert len(rows) == before + 3
    assert [r["content"] for r in rows[-3:]] == [f"and what about module {n}?" for n in range(3)]

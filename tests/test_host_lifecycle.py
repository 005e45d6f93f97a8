"""ContextHost lifecycle, usage, decisions, status, tracing and construction from config."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from hermes_compressor import CompressorEngine
from hermes_core import ContextHost
from hermes_core.testing import (
    EventCapture,
    TemporarySite,
    engine_module_source,
    host_for,
    sample_conversation,
)
from tests.host_engines import Recording


class Watching(Recording):
    """Remembers the thresholds map it saw at each update_model."""

    @property
    def name(self) -> str:
        return "watching"

    def on_session_start(  # type: ignore[override]  # accepts fewer keywords than the base
        self, session_id: str, hermes_home: str | None = None, model: str | None = None
    ) -> None:
        self._record("on_session_start", session_id, hermes_home=hermes_home, model=model)

    def update_model(
        self,
        model: str,
        context_length: int,
        base_url: str = "",
        api_key: str = "",
        provider: str = "",
        api_mode: str = "",
    ) -> None:
        self._record(
            "update_model",
            model,
            context_length,
            thresholds=dict(self.model_thresholds),
            provider=provider,
        )
        super().update_model(model, context_length, provider=provider)


def test_model_thresholds_are_assigned_before_the_first_update_model() -> None:
    config = {
        "compression": {"model_thresholds": {"gpt": 0.5}},
        "context": {"reply_reserve_tokens": 0},  # the engine sees the whole window
    }
    host = host_for(Watching, config=config)
    host.update_model("gpt-5", 1000, provider="openai")
    ((args, kwargs),) = host.engine.calls_to("update_model")  # type: ignore[attr-defined]
    assert args == ("gpt-5", 1000)
    assert kwargs == {"thresholds": {"gpt": 0.5}, "provider": "openai"}
    assert host.engine.threshold_tokens == 500


def test_the_engine_is_told_the_window_less_the_replys_reserve() -> None:
    host = host_for(Watching)
    host.update_model("gpt-5", 200_000)
    ((args, _),) = host.engine.calls_to("update_model")  # type: ignore[attr-defined]
    assert args == ("gpt-5", 200_000 - 8_192)  # the smaller of 8,192 and a quarter
    status = host.status()
    assert (status["context_window"], status["reply_reserve_tokens"]) == (200_000, 8_192)
    host.update_model("small", 2_000)
    assert host.engine.calls_to("update_model")[-1][0] == ("small", 1_500)  # type: ignore[attr-defined]
    assert host.input_budget_tokens == 1_500


def test_start_session_offers_hermes_home_and_model_where_accepted(tmp_path: Path) -> None:
    host = host_for(Watching, env={"HERMES_HOME": str(tmp_path)})
    host.update_model("gpt-5", 1000)
    host.start_session("s1", platform="cli", conversation_id="c1")
    ((args, kwargs),) = host.engine.calls_to("on_session_start")  # type: ignore[attr-defined]
    assert args == ("s1",)
    assert kwargs == {"hermes_home": str(tmp_path), "model": "gpt-5"}
    assert host.session_id == "s1"


def test_usage_is_normalised_to_the_three_canonical_keys() -> None:
    host = host_for(Recording)
    host.record_usage({"input_tokens": 900, "output_tokens": 40, "cache_read_tokens": 7})
    host.record_usage(None)
    host.record_usage({"prompt_tokens": "lots", "completion_tokens": -3, "total_tokens": 2.5})
    seen = [args[0] for args, _ in host.engine.calls_to("update_from_response")]  # type: ignore[attr-defined]
    assert seen[0] == {
        "input_tokens": 900,
        "output_tokens": 40,
        "cache_read_tokens": 7,
        "prompt_tokens": 900,
        "completion_tokens": 40,
        "total_tokens": 940,
    }
    assert seen[1] == {"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0}
    assert (seen[2]["prompt_tokens"], seen[2]["completion_tokens"], seen[2]["total_tokens"]) == (
        0,
        0,
        2,
    )


class Erratic(Recording):
    answer: Any = True
    error: BaseException | None = None

    @property
    def name(self) -> str:
        return "erratic"

    def should_compress(self, prompt_tokens: Any = None) -> Any:
        if self.error:
            raise self.error
        return self.answer

    def should_compress_info(self, prompt_tokens: Any = None) -> Any:
        if self.error:
            raise self.error
        return self.answer

    def update_from_response(self, usage: Any) -> Any:
        if self.error:
            raise self.error

    def get_status(self) -> Any:
        if self.error:
            raise self.error
        return super().get_status()


@pytest.mark.parametrize("answer", ["yes", 1, None, [True]])
def test_a_non_bool_decision_is_false(logs: EventCapture, answer: object) -> None:
    host = host_for(Erratic)
    host.engine.answer = answer  # type: ignore[attr-defined]
    assert host.should_compress(500) is False
    assert host.should_compress_info(500) == (False, "engine_error")
    assert len(logs.named("context_engine.invalid_result")) == 2


def test_failing_decisions_and_usage_are_fail_open(logs: EventCapture) -> None:
    host = host_for(Erratic)
    host.engine.error = RuntimeError("db gone")  # type: ignore[attr-defined]
    assert host.should_compress(500) is False
    assert host.should_compress_info(500) == (False, "engine_error")
    host.record_usage({"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2})
    status = host.status()
    assert status["engine_status_error"] == "RuntimeError: db gone"
    assert status["hook_failures"] == 4
    failures = logs.named("context_engine.hook_failed")
    methods = [e["method"] for e in failures if e["engine"] == host.engine_name]
    assert methods == [
        "should_compress",
        "should_compress_info",
        "update_from_response",
        "get_status",
    ]


def test_valid_decisions_pass_through() -> None:
    host = host_for(Erratic)
    host.engine.answer = (True, "cooldown:60")  # type: ignore[attr-defined]
    assert host.should_compress_info(10) == (True, "cooldown:60")
    host.engine.answer = True  # type: ignore[attr-defined]
    assert host.should_compress(10) is True


def test_status_joins_engine_figures_and_host_figures() -> None:
    host = host_for(CompressorEngine, "compressor")
    host.update_model("m", 1000)  # the engine is told 750: a quarter is kept for the reply
    host.record_usage({"prompt_tokens": 250, "completion_tokens": 1, "total_tokens": 251})
    status = host.status()
    assert round(status["usage_percent"], 2) == 33.33
    assert status["engine"] == "compressor"
    assert status["engine_source"] == "general plugin hermes_core.testing"
    assert status["engine_fallback"] is None
    assert status["passes"] == 0


def test_tracing_logs_every_engine_call_with_sizes_and_duration(logs: EventCapture) -> None:
    host = host_for(Recording, env={"HERMES_TRACE_HOOKS": "1"})
    host.update_model("m", 1000)
    host.should_compress(5)
    host.compress([{"role": "user", "content": "hi"}], current_tokens=3)
    calls = logs.named("context_engine.call")
    assert [c["method"] for c in calls] == ["update_model", "should_compress", "compress"]
    compress = calls[-1]
    assert compress["args"] == [1]
    assert compress["kwargs"] == {"current_tokens": "int", "focus_topic": "NoneType"}
    assert compress["outcome"] == "ok"
    assert isinstance(compress["duration_ms"], float)


def test_without_tracing_nothing_is_logged_per_call(logs: EventCapture) -> None:
    host = host_for(Recording)
    host.should_compress(5)
    assert logs.named("context_engine.call") == []


def test_from_config_activates_the_selected_engine_with_overrides(
    tmp_path: Path, hermes_site: TemporarySite
) -> None:
    hermes_site.add_engine("acme-engine", "acme", engine_module_source("acme"))
    path = tmp_path / "config.yaml"
    path.write_text("context:\n  engine: compressor\n", encoding="utf-8")
    host = ContextHost.from_config(path, env={}, context={"engine": "acme"})
    assert (host.engine_name, host.engine.name) == ("acme", "acme")
    assert host.config.engine.name == "acme"


def test_overrides_keep_the_files_path_so_relative_plugin_dirs_resolve_against_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "conf"
    folder.mkdir()
    path = folder / "config.yaml"
    path.write_text("plugins:\n  dirs: [my-plugins]\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)  # elsewhere than the file's folder
    host = ContextHost.from_config(path, env={}, compression={"hook_timeout_seconds": 5})
    assert host.config.path == path
    assert host.config.plugin_dirs[0] == folder / "my-plugins"
    assert host.hook_timeout_seconds == 5


def test_from_config_records_a_fallback_in_status(tmp_path: Path) -> None:
    host = ContextHost.from_config({"context": {"engine": "not-installed"}}, env={})
    status = host.status()
    assert (status["engine"], status["requested_engine"]) == ("compressor", "not-installed")
    assert status["engine_fallback"] == "missing"


def test_lifecycle_failures_never_reach_the_agent(logs: EventCapture) -> None:
    class Fragile(Recording):
        @property
        def name(self) -> str:
            return "fragile"

        def on_session_start(self, session_id: Any, **kwargs: Any) -> Any:
            raise OSError("disk full")

        def on_session_end(self, session_id: Any, messages: Any) -> Any:
            raise OSError("disk full")

        def on_session_reset(self) -> Any:
            raise OSError("disk full")

        def update_model(self, *args: Any, **kwargs: Any) -> Any:
            raise OSError("disk full")

    host = host_for(Fragile)
    host.start_session("s")
    host.update_model("m", 10)
    host.end_session("s", [])
    host.reset_session()
    methods = [e["method"] for e in logs.named("context_engine.hook_failed")]
    assert methods == ["on_session_start", "update_model", "on_session_end", "on_session_reset"]


class Closing(Recording):
    """Counts close calls; raises on the first when asked to."""

    def __init__(self, fail: bool = False) -> None:
        super().__init__()
        self.closed = 0
        self.fail = fail

    def close(self) -> None:
        self.closed += 1
        if self.fail:
            raise RuntimeError("cannot release")


def test_close_calls_the_engines_close_once_and_a_with_block_closes() -> None:
    host = host_for(Closing())
    host.close()
    host.close()
    assert host.engine.closed == 1  # type: ignore[attr-defined]
    with host_for(Closing()) as entered:
        assert entered.engine.closed == 0  # type: ignore[attr-defined]
    assert entered.engine.closed == 1  # type: ignore[attr-defined]


def test_an_engine_that_fails_to_close_is_logged_not_raised(logs: EventCapture) -> None:
    engine = Closing(fail=True)
    host_for(engine).close()
    (event,) = logs.named("context_engine.hook_failed")
    assert event["method"] == "close"


def test_closing_an_lcm_host_closes_its_database_connections(tmp_path: Path) -> None:
    import sqlite3

    with ContextHost.from_config(
        {"context": {"engine": "lcm"}}, env={"HERMES_HOME": str(tmp_path)}
    ) as host:
        host.start_session("s")
        host.turn_complete([{"role": "user", "content": "hello"}], None)
        connection = host.engine.database.connection()  # type: ignore[attr-defined]
        connection.execute("SELECT 1")
    with pytest.raises(sqlite3.ProgrammingError):
        connection.execute("SELECT 1")  # closed


def test_the_host_hands_engines_the_llm_client_it_is_given_and_the_hermes_hooks() -> None:
    class Client:
        def complete(self, messages: list[Any], *, max_tokens: int | None = None) -> Any:
            raise AssertionError("not called here")

    client = Client()
    host = ContextHost.from_config({"context": {"engine": "compressor"}}, env={}, llm=client)
    assert host.engine.llm is client  # type: ignore[attr-defined]
    assert (host.engine.protect_first_n, host.engine.protect_last_n) == (3, 20)
    assert host.should_defer_preflight_to_real_usage(10_000) is False
    assert host.has_content_to_compress([{"role": "user", "content": "hi"}]) is False
    assert host.has_content_to_compress(sample_conversation(40)) is True
    plain = host_for(Recording)
    assert (plain.engine.protect_first_n, plain.engine.protect_last_n) == (3, 6)

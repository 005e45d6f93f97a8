"""Engine and plugin code cannot end the agent; hostile tool arguments get JSON errors."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from hermes_core import ContextEngine, ContextHost, hookimpl
from hermes_core.testing import TemporarySite, engine_module_source, host_for, sample_conversation
from tests.host_engines import Recording

ESCAPES: list[type[BaseException]] = [SystemExit, GeneratorExit, KeyboardInterrupt]


class Exiting(Recording):
    """Raises ``kind`` from every hook."""

    kind: type[BaseException] = SystemExit

    @property
    def name(self) -> str:
        return "exiting"

    def _raise(self, *args: Any, **kwargs: Any) -> Any:
        raise self.kind("engine code")

    update_from_response = should_compress = compress = select_context = _raise
    on_turn_complete = on_session_start = on_session_end = on_session_reset = _raise
    get_tool_schemas = get_status = update_model = close = _raise

    def handle_tool_call(self, name: str, args: dict[str, Any], **kwargs: Any) -> str:
        raise self.kind("engine code")


def exercise(host: ContextHost) -> None:
    history = sample_conversation(3)
    host.update_model("m", 10_000)
    host.start_session("s")
    host.record_usage({"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2})
    assert host.should_compress(100) is False
    assert host.compress(history) is history
    host.select_context(history, conversation_messages=history, budget_tokens=10_000)
    host.turn_complete(history, None)
    host.tool_schemas()
    host.handle_tool_call("x", {})
    host.status()
    host.end_session("s", history)
    host.reset_session()
    host.close()


@pytest.mark.parametrize("kind", [SystemExit, GeneratorExit])
@pytest.mark.parametrize("timeout", [0, 5])
def test_system_exit_and_generator_exit_from_an_engine_are_contained(
    kind: type[BaseException], timeout: int
) -> None:
    host = host_for(Exiting, config={"compression": {"context_timeout_seconds": timeout}})
    host.engine.kind = kind  # type: ignore[attr-defined]
    exercise(host)
    assert host.status()["hook_failures"] >= 8


def test_a_keyboard_interrupt_from_engine_code_on_a_pool_thread_is_contained() -> None:
    host = host_for(Exiting, config={"compression": {"context_timeout_seconds": 5}})
    host.engine.kind = KeyboardInterrupt  # type: ignore[attr-defined]
    history = sample_conversation(3)
    assert host.compress(history) is history  # the pass ran on a pool thread
    assert host.counters.pass_failures == 1  # status() would call the engine in this thread


def test_a_keyboard_interrupt_in_the_main_thread_belongs_to_the_user() -> None:
    host = host_for(Exiting, config={"compression": {"context_timeout_seconds": 0}})
    host.engine.kind = KeyboardInterrupt  # type: ignore[attr-defined]
    with pytest.raises(KeyboardInterrupt):
        host.compress(sample_conversation(3))
    contained: list[BaseException] = []
    # the same Ctrl-C raised by engine code run inline on a thread that is not the main one
    off = host_for(Exiting, config={"compression": {"context_timeout_seconds": 0}})
    off.engine.kind = KeyboardInterrupt  # type: ignore[attr-defined]

    def off_main() -> None:
        try:
            exercise(off)
        except BaseException as exc:  # pragma: no cover - the assertion below says it
            contained.append(exc)

    worker = threading.Thread(target=off_main)
    worker.start()
    worker.join()
    assert contained == []
    assert off.counters.hook_failures >= 8  # each call's KeyboardInterrupt, contained


def test_an_observer_raising_system_exit_stops_nothing() -> None:
    class Leaving:
        @hookimpl
        def hermes_context_compressed(self) -> None:
            raise SystemExit(3)

    host = ContextHost.from_config({"context": {"engine": "compressor"}}, env={})
    host.add_observer(Leaving())
    host.update_model("m", 4_000)
    assert len(host.compress(sample_conversation(40), current_tokens=3_900)) < 40 * 4


@pytest.mark.parametrize(
    "where",
    ["import", "constructor"],
)
def test_sys_exit_in_an_engine_module_or_constructor_falls_back(
    hermes_site: TemporarySite, where: str
) -> None:
    extra = (
        "    def __init__(self):\n        import sys; sys.exit(7)\n"
        if where == "constructor"
        else ""
    )
    source = engine_module_source("quitter", extra=extra)
    if where == "import":
        source = "import sys\nsys.exit(7)\n" + source
    hermes_site.add_engine("quitter-engine", "quitter", source)
    host = ContextHost.from_config({"context": {"engine": "quitter"}}, env={})
    assert host.engine_name == "compressor"
    assert "SystemExit" in str(host.activation.fallback)


def test_the_command_line_reports_an_engine_that_calls_sys_exit(
    tmp_path: Path, hermes_site: TemporarySite
) -> None:
    hermes_site.add_engine("quitter-engine", "quitter", "import sys\nsys.exit(7)\n")
    env = {"HERMES_HOME": str(tmp_path), "PYTHONPATH": str(hermes_site.path), "COLUMNS": "200"}
    for args in (["engines", "--check"], ["doctor", "quitter"], ["replay", "--engine", "quitter"]):
        result = subprocess.run(
            [sys.executable, "-m", "hermes_core", *args],
            capture_output=True,
            text=True,
            env=env,
            timeout=300,
        )
        assert result.returncode in (1, 2), (args, result.returncode)
        assert "SystemExit" in result.stdout + result.stderr, args


@pytest.mark.parametrize(
    ("name", "args"),
    [
        ("lcm_grep", "[" * 5000),
        ("lcm_grep", "{" * 100_000),
        ({"a": 1}, {}),
        (["x"], {}),
        (None, {}),
    ],
)
def test_hostile_tool_calls_get_json_errors(tmp_path: Path, name: Any, args: Any) -> None:
    host = ContextHost.from_config(
        {"context": {"engine": "lcm"}}, env={"HERMES_HOME": str(tmp_path)}
    )
    answer = json.loads(host.handle_tool_call(name, args))
    assert "error" in answer
    host.close()


class Measuring(ContextEngine):
    """compress returns a list whose content no estimate can measure."""

    name = "measuring"

    def update_from_response(self, usage: dict[str, Any]) -> None:
        pass

    def should_compress(self, prompt_tokens: int | None = None) -> bool:
        return True

    def compress(
        self, messages: list[Any], current_tokens: Any = None, focus_topic: Any = None
    ) -> list[Any]:
        part: dict[str, Any] = {"type": "note"}
        part["itself"] = part  # no JSON encoder can measure this
        return [{"role": "user", "content": [part]}]


class BadThresholds(Recording):
    @property
    def model_thresholds(self) -> Mapping[str, float]:
        return {}

    @model_thresholds.setter
    def model_thresholds(self, value: Mapping[str, float]) -> None:
        raise ValueError("no thank you")


def test_the_hosts_own_work_around_engine_calls_is_fail_open() -> None:
    host = host_for(Measuring, config={"compression": {"context_timeout_seconds": 0}})
    history = sample_conversation(3)
    assert host.compress(history) is history
    other = host_for(BadThresholds)
    other.update_model("m", 10_000)  # does not raise
    assert other.status()["hook_failures"] == 1


class Hanging(Recording):
    """Every bounded hook blocks until the test releases it."""

    release = threading.Event()

    @property
    def name(self) -> str:
        return "hanging"

    def _hang(self, *args: Any, **kwargs: Any) -> Any:
        Hanging.release.wait(60)
        return None

    select_context = on_turn_complete = on_session_start = on_session_end = _hang
    on_session_reset = update_model = close = _hang

    def get_tool_schemas(self) -> list[dict[str, Any]]:
        Hanging.release.wait(60)
        return [{"name": "t", "parameters": {"type": "object"}}]

    def handle_tool_call(self, name: str, args: dict[str, Any], **kwargs: Any) -> str:
        Hanging.release.wait(60)
        return "{}"

    def get_status(self) -> dict[str, Any]:
        Hanging.release.wait(60)
        return {}


def test_an_engine_hanging_in_any_bounded_call_costs_the_agent_only_the_bound() -> None:
    Hanging.release = threading.Event()
    host = host_for(Hanging, config={"compression": {"hook_timeout_seconds": 0.2}})
    history = sample_conversation(3)
    try:
        host.update_model("m", 10_000)
        host.start_session("s")
        request = [*history, {"role": "user", "content": "next"}]
        assert host.select_context(request, conversation_messages=history) is request
        host.turn_complete(history, None)
        assert host.tool_schemas() == []
        assert "error" in json.loads(host.handle_tool_call("t", {}))
        status = host.status()
        assert "did not answer in time" in status["engine_status_error"]
        host.end_session("s", history)
        host.reset_session()
        host.close()
        assert not Hanging.release.is_set()  # every answer came while the engine still hung
        assert host.counters.hook_timeouts == 9  # the tool call never reached it: no tools listed
        assert host.counters.select_context_fallbacks == 1
    finally:
        Hanging.release.set()


def test_messages_nested_20000_deep_are_copied_for_the_engine_like_any_other() -> None:
    nested: Any = "x"
    for _ in range(20_000):
        nested = [nested]
    hostile = [{"role": "user", "content": [{"type": "text", "text": "hi", "deep": nested}]}]

    class Tooled(Recording):
        def get_tool_schemas(self) -> list[dict[str, Any]]:
            return [{"name": "t", "parameters": {"type": "object"}}]

        def handle_tool_call(self, name: str, args: dict[str, Any], **kwargs: Any) -> str:
            return "{}"

    host = host_for(Tooled)
    host.tool_schemas()
    host.end_session("s", hostile)
    assert host.has_content_to_compress(hostile) is True
    answer = json.loads(host.handle_tool_call("t", {}, messages=hostile))
    assert answer == {}
    assert host.counters.hook_failures == 0


def _writer_engine(site: TemporarySite, log: Path, close_body: str = "") -> None:
    """Engine ``writer``: writes into its home from a thread of its own (as lcm's embedding
    worker does) until closed; each instance adds a line to ``log`` when created and one
    when closed. ``close_body``: what its ``close`` does first."""
    extra = f"""
    def __init__(self, config=None, hermes_home=None):
        import threading
        from pathlib import Path
        self.hermes_home = hermes_home
        self.open = True
        def write():
            n = 0
            while self.open:
                n += 1
                folder = Path(hermes_home, "writer")
                try:
                    folder.mkdir(parents=True, exist_ok=True)
                    (folder / f"{{n}}").write_text("x")
                except OSError:
                    pass
        self.thread = threading.Thread(target=write, daemon=True)
        self.thread.start()
        with open({str(log)!r}, "a") as out:
            out.write("created\\n")

    def close(self):
        {close_body or "pass"}
        self.open = False
        self.thread.join()
        with open({str(log)!r}, "a") as out:
            out.write("closed\\n")
"""
    site.add_engine("writer-engine", "writer", engine_module_source("writer", extra=extra))


def _command(home: Path, site: TemporarySite, *args: str) -> subprocess.CompletedProcess[str]:
    env = {"HERMES_HOME": str(home), "PYTHONPATH": str(site.path)}
    return subprocess.run(
        [sys.executable, "-m", "hermes_core", *args],
        capture_output=True,
        text=True,
        env={**env, "HERMES_LCM_EMBEDDING_MODEL": "none"},
        timeout=300,
    )


def test_engines_check_closes_each_engine_before_its_throwaway_home_goes(
    tmp_path: Path, hermes_site: TemporarySite
) -> None:
    """An engine writing into its home from a thread of its own is closed before the
    check's temporary home is removed: the command succeeds."""
    log = tmp_path / "log"
    _writer_engine(hermes_site, log)
    result = _command(tmp_path / "home", hermes_site, "engines", "--check", "--json")
    assert result.returncode == 0, result.stderr
    checked = {e["name"]: e.get("check") for e in json.loads(result.stdout)["engines"]}
    assert checked["writer"] == "ok"
    assert log.read_text().split() == ["created", "closed"]  # closed by the command


def test_doctor_closes_every_engine_its_contract_checks_create(
    tmp_path: Path, hermes_site: TemporarySite
) -> None:
    """doctor creates the engine once, then again for most contract rules: each one is
    closed before the throwaway home goes."""
    log = tmp_path / "log"
    _writer_engine(hermes_site, log)
    result = _command(tmp_path / "home", hermes_site, "doctor", "writer")
    # (its thread cannot be deep-copied, so one rule, the clone's, fails: the rest ran)
    assert "21 of 22 contract rules hold" in result.stdout, result.stdout + result.stderr
    lines = log.read_text().split()
    assert lines.count("created") > 2
    assert lines.count("closed") == lines.count("created")


def test_an_engine_whose_close_never_returns_does_not_hang_the_check(
    tmp_path: Path, hermes_site: TemporarySite
) -> None:
    """Closing is bounded as the host bounds it (``compression.hook_timeout_seconds``):
    the command ends, the others are still closed."""
    log = tmp_path / "log"
    _writer_engine(hermes_site, log, close_body="import threading; threading.Event().wait()")
    home = tmp_path / "home"
    home.mkdir()
    (home / "config.yaml").write_text("compression:\n  hook_timeout_seconds: 1\n")
    result = _command(home, hermes_site, "engines", "--check", "--json")
    assert result.returncode == 0, result.stderr
    checked = {e["name"]: e.get("check") for e in json.loads(result.stdout)["engines"]}
    assert checked["writer"] == "ok" and "closed" not in log.read_text()

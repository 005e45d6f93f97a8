"""Loading config.yaml: location, defaults, and errors that name file, key, line and fix."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hermes_engine_lcm.settings import RULES as LCM

from hermes_compressor.settings import RULES as COMPRESSION
from hermes_core import ConfigError, load_config, read_section
from hermes_core.testing import EventCapture


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_a_missing_default_file_means_all_defaults(tmp_path: Path) -> None:
    config = load_config(env={"HERMES_HOME": str(tmp_path)})
    assert config.engine.name == "compressor"
    assert config.strict is False
    assert config.problems == ()
    assert config.plugin_dirs == (tmp_path / "plugins",)


def test_the_file_comes_from_hermes_home(tmp_path: Path) -> None:
    write(tmp_path / "config.yaml", "context:\n  engine: lcm\n")
    config = load_config(env={"HERMES_HOME": str(tmp_path)})
    assert config.engine.name == "lcm"
    assert config.path == tmp_path / "config.yaml"


def test_one_rule_for_the_home_wherever_it_is_asked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from hermes_core.config import HermesConfig, hermes_home
    from hermes_core.sources.hermes_plugins._shims import get_hermes_home

    default = Path.home() / ".hermes"
    assert hermes_home({}) == default == HermesConfig().home
    assert hermes_home({"HERMES_HOME": ""}) == default  # empty means unset, as in Hermes
    monkeypatch.setenv("HERMES_HOME", str(tmp_path))
    assert hermes_home() == tmp_path == get_hermes_home()  # no host bound: the process's
    assert HermesConfig().home == default  # a config's home follows its own env (empty)
    assert load_config(env={"HERMES_HOME": str(tmp_path / "x")}).home == tmp_path / "x"


def test_hermes_config_beats_hermes_home_and_an_explicit_path_beats_both(tmp_path: Path) -> None:
    write(tmp_path / "home" / "config.yaml", "context: {engine: from-home}\n")
    env_file = write(tmp_path / "env.yaml", "context: {engine: from-env}\n")
    explicit = write(tmp_path / "explicit.yaml", "context: {engine: explicit}\n")
    env = {"HERMES_HOME": str(tmp_path / "home"), "HERMES_CONFIG": str(env_file)}
    assert load_config(env=env).engine.name == "from-env"
    assert load_config(explicit, env=env).engine.name == "explicit"


def test_the_environment_variable_overrides_the_selected_engine(tmp_path: Path) -> None:
    path = write(tmp_path / "config.yaml", "context:\n  engine: lcm\n")
    config = load_config(path, env={"HERMES_CONTEXT_ENGINE": "other"})
    assert config.engine.name == "other"
    assert "HERMES_CONTEXT_ENGINE" in config.engine.origin


def test_a_yaml_syntax_error_names_the_file_and_line(tmp_path: Path) -> None:
    path = write(tmp_path / "config.yaml", "context:\n  engine: lcm\n  strict: [true\n")
    with pytest.raises(ConfigError) as raised:
        load_config(path, strict=True)
    (problem,) = raised.value.problems
    assert problem.source == str(path)
    assert problem.line is not None and problem.line >= 3
    assert "valid YAML" in str(raised.value)
    assert str(path) in str(raised.value)


def test_a_yaml_syntax_error_is_not_fatal_without_strict(
    tmp_path: Path, logs: EventCapture
) -> None:
    path = write(tmp_path / "config.yaml", "context:\n  engine: lcm\n  strict: [true\n")
    config = load_config(path)
    assert config.engine.name == "compressor"
    (event,) = logs.named("hermes_config.invalid")
    assert event["file"] == str(path)
    assert event["log_level"] == "warning"
    # one line with file, line and column; no empty key
    assert "key" not in event
    assert (event["line"], event["column"]) == (4, 1)
    message = str(event["message"])
    assert message.startswith(f"{path}:4:1: invalid YAML: ") and "\n" not in message


@pytest.mark.parametrize(
    ("text", "key", "line", "expected"),
    [
        ("context:\n  engine: 5\n", "context.engine", 2, "engine name"),
        (
            "compression:\n  context_timeout_seconds: abc\n",
            "compression.context_timeout_seconds",
            2,
            "number",
        ),
        ("context:\n  engine: ../x\n", "context.engine", 2, "no path separators"),
        ("context:\n  strict: 'yes'\n", "context.strict", 2, "true or false"),
        ("\nplugins:\n  dirs: /one/dir\n", "plugins.dirs", 3, "list"),
        (
            "compression:\n  model_thresholds: {gpt: 2}\n",
            "compression.model_thresholds",
            2,
            "(0, 1]",
        ),
        ("context: 5\n", "context", 1, "mapping"),
    ],
)
def test_a_wrong_value_names_the_file_the_key_path_the_line_and_what_is_expected(
    tmp_path: Path, text: str, key: str, line: int, expected: str
) -> None:
    path = write(tmp_path / "config.yaml", text)
    with pytest.raises(ConfigError) as raised:
        load_config(path, strict=True)
    (problem,) = raised.value.problems
    assert (problem.source, problem.key, problem.line) == (str(path), key, line)
    assert expected in problem.expected
    assert f"{path}:{line}: key '{key}'" in str(raised.value)


def test_every_problem_is_reported_not_only_the_first(tmp_path: Path) -> None:
    text = "context:\n  engine: 5\ncompression:\n  hook_timeout_seconds: x\n"
    path = write(tmp_path / "c.yaml", text)
    with pytest.raises(ConfigError) as raised:
        load_config(path, strict=True)
    keys = [p.key for p in raised.value.problems]
    assert keys == ["context.engine", "compression.hook_timeout_seconds"]


def test_without_strict_a_wrong_value_is_dropped_and_the_rest_is_kept(
    tmp_path: Path, logs: EventCapture
) -> None:
    path = write(
        tmp_path / "c.yaml",
        "context:\n  engine: lcm\ncompression:\n  hook_timeout_seconds: abc\n  protect_last_n: 7\n",
    )
    config = load_config(path)
    assert config.engine.name == "lcm"
    assert "hook_timeout_seconds" not in config.section("compression")
    assert config.value("compression.hook_timeout_seconds") == 30  # the rule's default
    assert config.section("compression")["protect_last_n"] == 7
    (event,) = logs.named("hermes_config.invalid")
    assert (event["key"], event["line"]) == ("compression.hook_timeout_seconds", 4)


def test_strict_comes_from_the_file_or_the_environment(tmp_path: Path) -> None:
    path = write(tmp_path / "c.yaml", "context:\n  strict: true\n  engine: 5\n")
    with pytest.raises(ConfigError):
        load_config(path)
    bad = write(tmp_path / "bad.yaml", "context:\n  engine: 5\n")
    with pytest.raises(ConfigError):
        load_config(bad, env={"HERMES_STRICT_PLUGINS": "1"})


def test_an_explicit_path_that_does_not_exist_is_reported(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="no such file"):
        load_config(tmp_path / "nope.yaml", strict=True)


def test_yaml_tags_are_never_executed(tmp_path: Path) -> None:
    path = write(
        tmp_path / "c.yaml",
        "context:\n  engine: !!python/object/apply:os.system ['touch pwned']\n",
    )
    with pytest.raises(ConfigError):
        load_config(path, strict=True)
    assert not (tmp_path / "pwned").exists()


def test_an_engine_name_from_the_environment_is_checked_too() -> None:
    config = load_config({}, env={"HERMES_CONTEXT_ENGINE": "../../etc"})
    assert config.engine.valid is False


def test_plugin_dirs_are_relative_to_the_config_file_then_hermes_home(tmp_path: Path) -> None:
    path = write(tmp_path / "conf" / "config.yaml", "plugins:\n  dirs: [mine, /abs]\n")
    config = load_config(path, env={"HERMES_HOME": str(tmp_path / "home")})
    assert config.plugin_dirs == (
        tmp_path / "conf" / "mine",
        Path("/abs"),
        tmp_path / "home" / "plugins",
    )


def test_a_mapping_is_accepted_and_copied() -> None:
    source: dict[str, Any] = {
        "context": {"engine": "lcm"},
        "compression": {"model_thresholds": {"gpt": 0.4}},
    }
    config = load_config(source, env={})
    source["context"]["engine"] = "changed"
    assert config.engine.name == "lcm"
    assert config.model_thresholds == {"gpt": 0.4}


def test_hermes_agents_empty_strings_mean_unset_without_warnings(
    tmp_path: Path, logs: EventCapture
) -> None:
    path = write(
        tmp_path / "c.yaml",
        "auxiliary:\n  compression:\n    base_url: ''\n    model: ''\n    api_key: ''\n",
    )
    config = load_config(path)
    assert config.problems == () and logs.entries == []
    from hermes_core.llm import AuxiliaryLLMConfig

    assert AuxiliaryLLMConfig.from_config(config.data, "compression") is None


def test_auxiliary_llm_values_are_checked(tmp_path: Path) -> None:
    path = write(
        tmp_path / "c.yaml",
        "auxiliary:\n  compression:\n    base_url: ftp://x\n    timeout_seconds: 0\n"
        "    max_retries: 99\n    api_key_env: 'MY KEY'\n",
    )
    with pytest.raises(ConfigError) as raised:
        load_config(path, strict=True)
    assert [p.key for p in raised.value.problems] == [
        "auxiliary.compression.base_url",
        "auxiliary.compression.api_key_env",
        "auxiliary.compression.timeout_seconds",
        "auxiliary.compression.max_retries",
    ]


def test_a_misspelled_top_level_key_is_named_with_the_closest_known_one(
    tmp_path: Path, logs: EventCapture
) -> None:
    path = write(tmp_path / "config.yaml", "model: x\ncontxt:\n  engine: lcm\nagent: {}\n")
    config = load_config(path)
    assert config.engine.name == "compressor"
    (event,) = logs.named("hermes_config.unknown_key")
    assert (event["key"], event["suggestion"], event["line"]) == ("contxt", "context", 2)
    assert f"{path}:2: unknown top-level key 'contxt'" in str(event["message"])


def test_hermes_agents_own_sections_and_far_off_keys_are_not_taken_for_misspellings(
    tmp_path: Path, logs: EventCapture
) -> None:
    text = "model: x\nmemory: {}\ntoolsets: []\nlcm:\n  database: x\nmy_engine: {}\n"
    load_config(write(tmp_path / "config.yaml", text))
    assert logs.named("hermes_config.unknown_key") == []


SECTION_TYPOS = """\
context:
  engine: compressor
  strcit: true
plugins:
  enabled: []
  disabled: []
  dirz: [x]
compression:
  treshold: 0.3
  hook_timeout_seconds: 5
  protect_last_n: 3
  summary_model: old-style
lcm:
  fresh_tail_mesages: 4
auxiliary:
  compression:
    modle: x
    provider: auto
"""


def test_a_misspelled_key_inside_a_core_section_is_named_with_file_line_and_closest_key(
    tmp_path: Path, logs: EventCapture
) -> None:
    path = write(tmp_path / "config.yaml", SECTION_TYPOS)
    load_config(path)
    found = {
        event["key"]: (event["line"], event["suggestion"])
        for event in logs.named("hermes_config.unknown_key")
    }
    assert found == {
        "context.strcit": (3, "context.strict"),
        "plugins.dirz": (7, "plugins.dirs"),
        "auxiliary.compression.modle": (17, "auxiliary.compression.model"),
    }
    (message,) = [e["message"] for e in logs.named("hermes_config.unknown_key") if e["line"] == 3]
    assert (
        message
        == f"{path}:3: unknown key 'context.strcit' is ignored; did you mean 'context.strict'?"
    )


def test_a_misspelled_key_in_an_engines_section_is_named_when_the_engine_reads_it(
    tmp_path: Path, logs: EventCapture
) -> None:
    config = load_config(write(tmp_path / "config.yaml", SECTION_TYPOS))
    read_section("compression", COMPRESSION, None, config)
    read_section("lcm", LCM, None, config)
    found = {
        event["key"]: (event["line"], event["suggestion"])
        for event in logs.named("hermes_config.unknown_key")
        if event["key"].split(".")[0] in ("compression", "lcm")
    }
    # the core's hook_timeout_seconds and Hermes Agent's protect_last_n / summary_model are
    # read in compression: by others than the compressor, and never flagged
    assert found == {
        "compression.treshold": (9, "compression.threshold"),
        "lcm.fresh_tail_mesages": (14, "lcm.fresh_tail_messages"),
    }


def test_a_key_close_to_no_valid_one_lists_the_sections_keys(
    tmp_path: Path, logs: EventCapture
) -> None:
    load_config(write(tmp_path / "config.yaml", "plugins:\n  zzz: 1\n"))
    (event,) = logs.named("hermes_config.unknown_key")
    assert event["suggestion"] is None
    assert "the keys read in plugins are: " in str(event["message"])
    assert "dirs" in str(event["message"]) and "register_timeout_seconds" in str(event["message"])


def test_strict_mode_makes_unknown_keys_errors_and_lists_every_one(tmp_path: Path) -> None:
    path = write(tmp_path / "config.yaml", SECTION_TYPOS.replace("strcit", "strict"))
    with pytest.raises(ConfigError) as raised:
        load_config(path)
    assert [p.key for p in raised.value.problems] == ["plugins.dirz", "auxiliary.compression.modle"]
    assert f"{path}:7: unknown key 'plugins.dirz' is ignored" in str(raised.value)
    lenient = load_config(
        write(tmp_path / "ok.yaml", "context:\n  strict: true\nlcm:\n  fresh_tail_mesages: 4\n")
    )
    with pytest.raises(ConfigError, match=r"ok.yaml:4: unknown key 'lcm.fresh_tail_mesages'"):
        read_section("lcm", LCM, None, lenient)

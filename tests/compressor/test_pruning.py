"""Pruning without an LLM: back-references, descriptors, shortened arguments that stay JSON."""

from __future__ import annotations

import copy
import json

from hermes_compressor.pruning import ARGUMENT_MAX_CHARS, prune
from hermes_core.testing._conversations import assistant_calls, tool_call, tool_result, user

BIG = "line of output\n" * 30  # 450 characters
HUGE = "Traceback (most recent call last):\n  boom\n" + "frame\n" * 200


def test_identical_long_results_keep_the_latest_copy_and_back_reference_the_rest() -> None:
    messages = [
        assistant_calls(tool_call("a")),
        tool_result("a", BIG),
        assistant_calls(tool_call("b")),
        tool_result("b", BIG),
    ]
    pruned = prune(messages)
    assert pruned[1]["content"] == "[same output as the later result of tool call b]"
    assert pruned[3]["content"] == BIG


def test_short_results_are_never_touched() -> None:
    messages = [
        assistant_calls(tool_call("a")),
        tool_result("a", "ok"),
        assistant_calls(tool_call("b")),
        tool_result("b", "ok"),
    ]
    assert prune(messages) == messages


def test_long_results_become_one_line_descriptors_with_tool_and_outcome() -> None:
    messages = [assistant_calls(tool_call("a", "run_tests", path="tests/")), tool_result("a", HUGE)]
    (line,) = prune(messages)[1]["content"].splitlines()
    assert line.startswith('[pruned tool result] run_tests({"path": "tests/"}) -> failed:')
    assert f"({len(HUGE)} chars)" in line


def test_long_string_arguments_are_shortened_inside_valid_json() -> None:
    patch = "+" * 5_000
    messages = [assistant_calls(tool_call("a", "apply_patch", patch=patch, path="x.py"))]
    arguments = prune(messages)[0]["tool_calls"][0]["function"]["arguments"]
    parsed = json.loads(arguments)
    assert parsed["path"] == "x.py"
    assert parsed["patch"].startswith("+" * ARGUMENT_MAX_CHARS)
    assert parsed["patch"].endswith(f"[{5_000 - ARGUMENT_MAX_CHARS} more chars]")


def test_arguments_that_are_not_json_are_left_alone() -> None:
    raw = "not json " * 100
    message = assistant_calls(tool_call("a"))
    message["tool_calls"][0]["function"]["arguments"] = raw
    assert prune([message])[0]["tool_calls"][0]["function"]["arguments"] == raw


def test_the_input_is_never_modified() -> None:
    messages = [
        user("go"),
        assistant_calls(tool_call("a", patch="+" * 900)),
        tool_result("a", HUGE),
        assistant_calls(tool_call("b")),
        tool_result("b", HUGE),
    ]
    before = copy.deepcopy(messages)
    prune(messages)
    assert messages == before

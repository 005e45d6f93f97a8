"""The ContextEngine contract as a pytest test class that any engine can inherit.

Subclass :class:`ContextEngineContract` in a module whose name pytest
collects, name the class ``Test...``, and return a fresh engine from
:meth:`~ContextEngineContract.make_engine`::

    from hermes_core.testing import ContextEngineContract

    class TestMyEngine(ContextEngineContract):
        expected_name = "my-engine"

        def make_engine(self):
            return MyEngine()

Each test states one rule every engine must keep, whatever its strategy.
"""

from __future__ import annotations

import copy
import json

import pytest

from hermes_core.engine import ContextEngine
from hermes_core.messages import validate_messages
from hermes_core.registry.validation import validate_engine
from hermes_core.testing.conversations import sample_conversation

__all__ = ["ContextEngineContract"]

USAGE = {"prompt_tokens": 1234, "completion_tokens": 56, "total_tokens": 1290}


class ContextEngineContract:
    """Rules every context engine keeps. Override :meth:`make_engine`."""

    #: The name the engine must report; None skips that check.
    expected_name: str | None = None
    #: The context length the contract configures engines with.
    context_length: int = 100_000

    def make_engine(self) -> ContextEngine:
        """Return a new engine instance; each call must return a separate object."""
        raise NotImplementedError("override make_engine() to return your engine")

    @pytest.fixture
    def engine(self) -> ContextEngine:
        engine = self.make_engine()
        engine.update_model("contract-model", self.context_length)
        return engine

    def test_engine_is_a_context_engine_with_a_name(self, engine: ContextEngine) -> None:
        assert isinstance(engine, ContextEngine)
        assert isinstance(engine.name, str) and engine.name
        if self.expected_name is not None:
            assert engine.name == self.expected_name

    def test_engine_signatures_fit_the_hookspecs(self, engine: ContextEngine) -> None:
        validate_engine(engine, name=engine.name, source="contract kit")

    def test_counters_the_host_reads_are_integers(self, engine: ContextEngine) -> None:
        for attribute in (
            "last_prompt_tokens",
            "last_completion_tokens",
            "last_total_tokens",
            "threshold_tokens",
            "context_length",
            "compression_count",
        ):
            assert isinstance(getattr(engine, attribute), int), attribute

    def test_update_from_response_records_the_usage(self, engine: ContextEngine) -> None:
        engine.update_from_response(dict(USAGE))
        assert engine.last_prompt_tokens == USAGE["prompt_tokens"]
        assert engine.last_completion_tokens == USAGE["completion_tokens"]
        assert engine.last_total_tokens == USAGE["total_tokens"]

    def test_update_from_response_accepts_the_optional_usage_keys(
        self, engine: ContextEngine
    ) -> None:
        usage = dict(USAGE, cache_read_tokens=7, cache_write_tokens=3, reasoning_tokens=11)
        usage.update(input_tokens=1234, output_tokens=56)
        engine.update_from_response(usage)
        assert engine.last_prompt_tokens == USAGE["prompt_tokens"]

    def test_update_model_sets_context_length_and_a_threshold_inside_it(
        self, engine: ContextEngine
    ) -> None:
        engine.update_model("contract-model-2", 50_000)
        assert engine.context_length == 50_000
        assert 0 <= engine.threshold_tokens <= 50_000

    def test_should_compress_answers_a_bool(self, engine: ContextEngine) -> None:
        assert isinstance(engine.should_compress(), bool)
        assert isinstance(engine.should_compress(10), bool)
        assert engine.should_compress(0) is False

    def test_should_compress_info_answers_a_decision_and_an_optional_reason(
        self, engine: ContextEngine
    ) -> None:
        decision, reason = engine.should_compress_info(10)
        assert isinstance(decision, bool)
        assert reason is None or isinstance(reason, str)

    def test_compress_returns_a_valid_message_list(self, engine: ContextEngine) -> None:
        messages = sample_conversation()
        result = engine.compress(copy.deepcopy(messages), current_tokens=90_000)
        assert isinstance(result, list) and result
        assert validate_messages(result) == []

    def test_compress_keeps_the_last_user_message(self, engine: ContextEngine) -> None:
        messages = sample_conversation()
        messages.append({"role": "user", "content": "the very last question"})
        result = engine.compress(copy.deepcopy(messages), current_tokens=90_000)
        texts = [m.get("content") for m in result if m.get("role") == "user"]
        assert any(isinstance(t, str) and "the very last question" in t for t in texts)

    def test_compress_accepts_a_focus_topic(self, engine: ContextEngine) -> None:
        result = engine.compress(sample_conversation(), None, "file_3.py")
        assert validate_messages(result) == []

    def test_short_conversation_survives_compress(self, engine: ContextEngine) -> None:
        messages = [{"role": "user", "content": "hello"}]
        result = engine.compress(copy.deepcopy(messages))
        assert isinstance(result, list)
        assert all(isinstance(m, dict) and "role" in m for m in result)

    def test_get_status_reports_the_standard_figures(self, engine: ContextEngine) -> None:
        engine.last_prompt_tokens = -1  # "compression just ran"
        status = engine.get_status()
        for key in ("threshold_tokens", "context_length", "compression_count"):
            assert key in status
        assert status["last_prompt_tokens"] >= 0
        assert 0 <= status["usage_percent"] <= 100

    def test_session_reset_zeroes_the_counters(self, engine: ContextEngine) -> None:
        engine.update_from_response(dict(USAGE))
        engine.compress(sample_conversation(), current_tokens=90_000)
        engine.on_session_reset()
        assert engine.last_prompt_tokens == 0
        assert engine.last_completion_tokens == 0
        assert engine.last_total_tokens == 0
        assert engine.compression_count == 0

    def test_session_lifecycle_calls_do_not_raise(self, engine: ContextEngine) -> None:
        engine.on_session_start("contract-session", model="contract-model", context_length=1000)
        engine.on_session_end("contract-session", sample_conversation(2))

    def test_tool_schemas_are_named_json_schema_functions(self, engine: ContextEngine) -> None:
        schemas = engine.get_tool_schemas()
        assert isinstance(schemas, list)
        for schema in schemas:
            assert isinstance(schema.get("name"), str) and schema["name"]
            assert isinstance(schema.get("parameters", {}), dict)

    def test_unknown_tool_answers_a_json_error(self, engine: ContextEngine) -> None:
        answer = json.loads(engine.handle_tool_call("no_such_tool_xyz", {}))
        assert "error" in answer

    def test_select_context_returns_none_or_a_list_of_messages(self, engine: ContextEngine) -> None:
        history = sample_conversation(3)
        incoming = {"role": "user", "content": "next"}
        selected = engine.select_context(
            [*history, incoming],
            conversation_messages=history,
            incoming_message=incoming,
            budget_tokens=self.context_length,
        )
        assert selected is None or (
            isinstance(selected, list) and all(isinstance(m, dict) for m in selected)
        )

    def test_on_turn_complete_accepts_usage_and_meta(self, engine: ContextEngine) -> None:
        engine.on_turn_complete(sample_conversation(1), dict(USAGE), turn_id="t1")
        engine.on_turn_complete(sample_conversation(1), None)

    def test_two_instances_do_not_share_state(self) -> None:
        first, second = self.make_engine(), self.make_engine()
        assert first is not second
        first.update_model("model-a", 10_000)
        second.update_model("model-b", 200_000)
        first.update_from_response(dict(USAGE))
        assert first.context_length == 10_000
        assert second.context_length == 200_000
        assert second.last_prompt_tokens == 0

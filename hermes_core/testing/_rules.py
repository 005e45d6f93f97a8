"""The rules every context engine keeps, as plain checks: no test framework needed.

Each rule is a function of a :class:`ContractSubject` that returns when the
rule holds and raises :class:`ContractViolation` (saying what was wrong) when
it does not. :class:`~hermes_core.testing.ContextEngineContract` turns each
rule into a pytest test; ``hermes-context doctor`` runs them directly, so an
installed engine can be checked in a production environment without pytest.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from hermes_core._containment import reraise_user_interrupt
from hermes_core._engine import ContextEngine
from hermes_core._errors import ContractViolation, EngineValidationError
from hermes_core.messages import validate_messages
from hermes_core.registry._validation import validate_engine
from hermes_core.testing._conversations import sample_conversation

__all__ = [
    "RULES",
    "ContractRule",
    "ContractSubject",
    "ContractViolation",
    "RuleOutcome",
    "check_contract",
]

USAGE = {"prompt_tokens": 1234, "completion_tokens": 56, "total_tokens": 1290}


def require(condition: object, what: str) -> None:
    """Raise :class:`ContractViolation` with ``what`` unless ``condition`` holds."""
    if not condition:
        raise ContractViolation(what)


@dataclass(frozen=True)
class ContractSubject:
    """What the rules check: a way to make fresh engines, and what to expect of them."""

    make_engine: Callable[[], ContextEngine]
    expected_name: str | None = None
    context_length: int = 100_000

    def engine(self) -> ContextEngine:
        """A fresh engine, configured for a model of ``context_length`` tokens."""
        engine = self.make_engine()
        engine.update_model("contract-model", self.context_length)
        return engine


@dataclass(frozen=True)
class ContractRule:
    """One rule: ``name`` is its identifier (``compress_returns_a_valid_message_list``)."""

    name: str
    check: Callable[[ContractSubject], None]

    @property
    def sentence(self) -> str:
        """The rule in words: ``compress returns a valid message list``."""
        return self.name.replace("_", " ")


RULES: list[ContractRule] = []


def _rule(check: Callable[[ContractSubject], None]) -> Callable[[ContractSubject], None]:
    RULES.append(ContractRule(check.__name__, check))
    return check


def _is_valid(messages: Any) -> str | None:
    if not isinstance(messages, list) or not messages:
        return f"got {type(messages).__name__} {str(messages)[:60]!r}, expected a non-empty list"
    problems = validate_messages(messages)
    return "; ".join(str(problem) for problem in problems[:3]) if problems else None


@_rule
def engine_is_a_context_engine_with_a_name(subject: ContractSubject) -> None:
    engine = subject.engine()
    require(isinstance(engine, ContextEngine), f"{type(engine).__name__} is no ContextEngine")
    require(isinstance(engine.name, str) and engine.name, f"name is {engine.name!r}")
    if subject.expected_name is not None:
        require(
            engine.name == subject.expected_name,
            f"name is {engine.name!r}, registered as {subject.expected_name!r}",
        )


@_rule
def engine_signatures_fit_the_hookspecs(subject: ContractSubject) -> None:
    engine = subject.engine()
    try:
        validate_engine(engine, name=engine.name, source="contract kit")
    except EngineValidationError as exc:
        raise ContractViolation(str(exc)) from None


@_rule
def counters_the_host_reads_are_integers(subject: ContractSubject) -> None:
    engine = subject.engine()
    for attribute in (
        "last_prompt_tokens",
        "last_completion_tokens",
        "last_total_tokens",
        "threshold_tokens",
        "context_length",
        "compression_count",
    ):
        value = getattr(engine, attribute, None)
        require(isinstance(value, int), f"{attribute} is {value!r}, expected an int")


@_rule
def update_from_response_records_the_usage(subject: ContractSubject) -> None:
    engine = subject.engine()
    engine.update_from_response(dict(USAGE))
    got = (engine.last_prompt_tokens, engine.last_completion_tokens, engine.last_total_tokens)
    expected = (USAGE["prompt_tokens"], USAGE["completion_tokens"], USAGE["total_tokens"])
    require(got == expected, f"last_*_tokens are {got} after usage {expected}")


@_rule
def update_from_response_accepts_the_optional_usage_keys(subject: ContractSubject) -> None:
    engine = subject.engine()
    usage = dict(USAGE, cache_read_tokens=7, cache_write_tokens=3, reasoning_tokens=11)
    usage.update(input_tokens=1234, output_tokens=56)
    engine.update_from_response(usage)
    require(
        engine.last_prompt_tokens == USAGE["prompt_tokens"],
        f"last_prompt_tokens is {engine.last_prompt_tokens}, expected {USAGE['prompt_tokens']}",
    )


@_rule
def update_model_sets_context_length_and_a_threshold_inside_it(subject: ContractSubject) -> None:
    engine = subject.engine()
    engine.update_model("contract-model-2", 50_000)
    require(engine.context_length == 50_000, f"context_length is {engine.context_length}")
    require(
        0 <= engine.threshold_tokens <= 50_000,
        f"threshold_tokens is {engine.threshold_tokens} for a 50,000-token window",
    )


@_rule
def should_compress_answers_a_bool(subject: ContractSubject) -> None:
    engine = subject.engine()
    for argument in ((), (10,)):
        answer = engine.should_compress(*argument)
        require(isinstance(answer, bool), f"should_compress{argument} answered {answer!r}")
    require(engine.should_compress(0) is False, "should_compress(0) is not False")


@_rule
def should_compress_info_answers_a_decision_and_an_optional_reason(
    subject: ContractSubject,
) -> None:
    decision, reason = subject.engine().should_compress_info(10)
    require(isinstance(decision, bool), f"the decision is {decision!r}")
    require(reason is None or isinstance(reason, str), f"the reason is {reason!r}")


@_rule
def compress_returns_a_valid_message_list(subject: ContractSubject) -> None:
    result = subject.engine().compress(sample_conversation(), current_tokens=90_000)
    problem = _is_valid(result)
    require(problem is None, f"compress returned an invalid list: {problem}")


@_rule
def compress_keeps_the_last_user_message(subject: ContractSubject) -> None:
    messages = sample_conversation()
    messages.append({"role": "user", "content": "the very last question"})
    result = subject.engine().compress(copy.deepcopy(messages), current_tokens=90_000)
    texts = [m.get("content") for m in result if isinstance(m, dict) and m.get("role") == "user"]
    require(
        any(isinstance(t, str) and "the very last question" in t for t in texts),
        "the last user message is not in the result",
    )


@_rule
def compress_accepts_a_focus_topic(subject: ContractSubject) -> None:
    result = subject.engine().compress(sample_conversation(), None, "file_3.py")
    problem = _is_valid(result)
    require(problem is None, f"compress with a focus topic returned an invalid list: {problem}")


@_rule
def short_conversation_survives_compress(subject: ContractSubject) -> None:
    result = subject.engine().compress([{"role": "user", "content": "hello"}])
    require(isinstance(result, list), f"compress returned {type(result).__name__}")
    require(
        all(isinstance(m, dict) and "role" in m for m in result),
        "compress returned an item that is not a message",
    )


@_rule
def get_status_reports_the_standard_figures(subject: ContractSubject) -> None:
    engine = subject.engine()
    engine.last_prompt_tokens = -1  # "compression just ran"
    status = engine.get_status()
    for key in ("threshold_tokens", "context_length", "compression_count"):
        require(key in status, f"get_status() has no {key!r}")
    require(status.get("last_prompt_tokens", -1) >= 0, "last_prompt_tokens is reported below 0")
    usage = status.get("usage_percent", -1)
    require(0 <= usage <= 100, f"usage_percent is {usage}")


@_rule
def session_reset_zeroes_the_counters(subject: ContractSubject) -> None:
    engine = subject.engine()
    engine.update_from_response(dict(USAGE))
    engine.compress(sample_conversation(), current_tokens=90_000)
    engine.on_session_reset()
    counters = {
        name: getattr(engine, name)
        for name in (
            "last_prompt_tokens",
            "last_completion_tokens",
            "last_total_tokens",
            "compression_count",
        )
    }
    require(not any(counters.values()), f"after on_session_reset: {counters}")


@_rule
def a_session_can_start_end_and_start_again(subject: ContractSubject) -> None:
    engine = subject.engine()
    for session in ("contract-session", "contract-session-2"):
        engine.on_session_start(session, model="contract-model", context_length=1000)
        ended = sample_conversation(2)
        before = json.dumps(ended)
        engine.on_session_end(session, ended)
        require(json.dumps(ended) == before, "on_session_end changed the messages it was given")
        decision = engine.should_compress(0)
        require(decision is False, f"should_compress(0) after {session} ended is {decision!r}")


@_rule
def tool_schemas_are_named_json_schema_functions(subject: ContractSubject) -> None:
    schemas = subject.engine().get_tool_schemas()
    require(isinstance(schemas, list), f"get_tool_schemas() returned {type(schemas).__name__}")
    for schema in schemas:
        require(
            isinstance(schema, dict) and isinstance(schema.get("name"), str) and schema["name"],
            f"a tool schema without a name: {str(schema)[:80]}",
        )
        require(
            isinstance(schema.get("parameters", {}), dict),
            f"tool {schema['name']!r}: parameters is not a JSON schema object",
        )


@_rule
def unknown_tool_answers_a_json_error(subject: ContractSubject) -> None:
    answer = subject.engine().handle_tool_call("no_such_tool_xyz", {})
    try:
        decoded = json.loads(answer)
    except (TypeError, ValueError):
        raise ContractViolation(f"the answer is not JSON: {str(answer)[:80]!r}") from None
    require(isinstance(decoded, dict) and "error" in decoded, f"no 'error' in {decoded!r}")


@_rule
def select_context_returns_none_or_a_list_of_messages(subject: ContractSubject) -> None:
    history = sample_conversation(3)
    incoming = {"role": "user", "content": "next"}
    selected = subject.engine().select_context(
        [*history, incoming],
        conversation_messages=history,
        incoming_message=incoming,
        budget_tokens=subject.context_length,
    )
    require(
        selected is None
        or (isinstance(selected, list) and all(isinstance(m, dict) for m in selected)),
        f"select_context returned {type(selected).__name__}",
    )


@_rule
def on_turn_complete_accepts_usage_and_meta_and_leaves_the_turn_alone(
    subject: ContractSubject,
) -> None:
    engine = subject.engine()
    for usage in (dict(USAGE), None):
        turn = sample_conversation(1)
        before = json.dumps(turn)
        engine.on_turn_complete(turn, usage, turn_id="t1")
        require(json.dumps(turn) == before, "on_turn_complete changed the messages it was given")


@_rule
def two_instances_do_not_share_state(subject: ContractSubject) -> None:
    first, second = subject.make_engine(), subject.make_engine()
    require(first is not second, "make_engine returned the same object twice")
    first.update_model("model-a", 10_000)
    second.update_model("model-b", 200_000)
    first.update_from_response(dict(USAGE))
    require(
        (first.context_length, second.context_length) == (10_000, 200_000),
        "update_model on one instance changed the other",
    )
    require(second.last_prompt_tokens == 0, "usage recorded on one instance reached the other")


@_rule
def clone_for_agent_gives_an_engine_of_its_own(subject: ContractSubject) -> None:
    engine = subject.engine()
    clone = engine.clone_for_agent()
    require(isinstance(clone, ContextEngine), f"clone_for_agent returned {type(clone).__name__}")
    require(clone is not engine, "clone_for_agent returned the engine itself")
    require(clone.name == engine.name, f"the clone is named {clone.name!r}, not {engine.name!r}")
    clone.update_model("another-model", 10_000)
    require(
        engine.context_length == subject.context_length,
        "update_model on the clone changed the engine it was cloned from",
    )
    clone.close()


@_rule
def prune_tool_results_only_answers_the_list_or_a_smaller_valid_one(
    subject: ContractSubject,
) -> None:
    messages = sample_conversation(12)
    before = json.dumps(messages)
    result = subject.engine().prune_tool_results_only(messages, current_tokens=50_000)
    require(
        isinstance(result, tuple) and len(result) == 2, "prune_tool_results_only answered no pair"
    )
    pruned, count = result
    require(json.dumps(messages) == before, "prune_tool_results_only changed what it was given")
    require(isinstance(count, int) and count >= 0, f"prune count {count!r} is not 0 or more")
    if count == 0:
        require(pruned is messages, "a prune of nothing must answer the very list it was given")
        return
    problem = _is_valid(pruned)
    require(problem is None, f"prune_tool_results_only returned an invalid list: {problem}")


@dataclass(frozen=True)
class RuleOutcome:
    """How one rule went: ``problem`` is None when it holds."""

    rule: ContractRule
    problem: str | None


def check_contract(subject: ContractSubject) -> list[RuleOutcome]:
    """Run every rule against ``subject``; a rule that raises anything is reported, not raised."""
    outcomes = []
    for rule in RULES:
        try:
            rule.check(subject)
        except ContractViolation as exc:
            outcomes.append(RuleOutcome(rule, str(exc)))
        except BaseException as exc:
            reraise_user_interrupt(exc)
            outcomes.append(RuleOutcome(rule, f"raised {type(exc).__name__}: {exc}"))
        else:
            outcomes.append(RuleOutcome(rule, None))
    return outcomes

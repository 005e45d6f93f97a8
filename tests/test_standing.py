"""Standing instructions: found in user messages without an LLM, ended by what revokes or
replaces them, carried verbatim within their share of the budget."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

from standing.phrasings import FIRST_NOT_RULES as NOT_RULES
from standing.phrasings import FIRST_RULES as RULES

from hermes_core.standing import HEADER, StandingInstructions, find_directives, is_block
from hermes_core.testing import EventCapture

REVOCATIONS = [
    "Forget what I said about bullet points.",
    "You can stop asking before each commit.",
    "Actually, forget the French thing.",
    "No need to use metric anymore.",
    "Ignore my earlier instruction about emojis.",
]


@pytest.mark.parametrize("text", RULES)
def test_a_rule_for_the_rest_of_the_session_is_found_verbatim(text: str) -> None:
    (directive,) = find_directives(text)
    assert directive.kind == "instruction" and directive.text == text


@pytest.mark.parametrize("text", NOT_RULES)
def test_a_task_a_question_or_talk_is_no_rule(text: str) -> None:
    assert find_directives(text) == []


@pytest.mark.parametrize("text", REVOCATIONS)
def test_a_revocation_is_found(text: str) -> None:
    (directive,) = find_directives(text)
    assert directive.kind == "revocation"


def test_code_and_quoted_text_set_no_rule() -> None:
    text = "Here is the config:\n```\n# always use tabs from now on\n```\n> never reply\nok?"
    assert find_directives(text) == []


def user(text: str) -> dict[str, Any]:
    return {"role": "user", "content": text}


def texts(ledger: StandingInstructions) -> list[str]:
    return [i.text for i in ledger.instructions]


def test_a_short_message_is_carried_whole_and_a_long_one_by_its_sentence() -> None:
    ledger = StandingInstructions()
    short = "Thanks. From now on, reply in bullet points only."
    rule = "Never write my phone number into a file."
    long = "Here is the background. " * 20 + rule + " Anyway, on to the report."
    ledger.observe([user(short), user(long)])
    assert texts(ledger) == [short, rule]


def test_the_history_handed_again_adds_nothing_and_only_user_messages_count() -> None:
    ledger = StandingInstructions()
    history = [
        {"role": "system", "content": "Always be helpful."},
        user("Call me Sam."),
        {"role": "assistant", "content": "From now on I will reply in French."},
    ]
    assert ledger.observe(history) == 1
    assert ledger.observe([*history, user("What time is it?")]) == 0
    assert texts(ledger) == ["Call me Sam."]


def test_a_later_rule_on_the_same_slot_replaces_the_earlier() -> None:
    ledger = StandingInstructions()
    ledger.observe([user("Always answer in French."), user("Call me Sam.")])
    ledger.observe([user("From now on, answer in German.")])
    assert texts(ledger) == ["Call me Sam.", "From now on, answer in German."]


def test_a_revocation_ends_the_rule_it_names_and_it_never_comes_back() -> None:
    ledger = StandingInstructions()
    history = [
        user("Reply in bullet points only."),
        user("Never write my phone number into a file."),
    ]
    ledger.observe(history)
    history.append(user("Forget what I said about bullet points."))
    ledger.observe(history)
    assert texts(ledger) == ["Never write my phone number into a file."]
    history.append(user("Please, reply in bullet points only."))  # set again, anew: in force
    ledger.observe(history)
    assert texts(ledger)[-1] == "Please, reply in bullet points only."


def test_a_revocation_that_names_nothing_ends_nothing() -> None:
    ledger = StandingInstructions()
    ledger.observe([user("Call me Sam."), user("You can stop asking before each commit.")])
    assert texts(ledger) == ["Call me Sam."]


def test_the_block_is_carried_within_its_share_weakest_then_oldest_giving_way(
    logs: EventCapture,
) -> None:
    ledger = StandingInstructions()
    ledger.observe(
        [
            user("From now on, show me the draft before sending anything."),  # set in time
            user("Please keep your answers under 100 words."),  # by its form only
            user("Never write my phone number into a file."),  # by frequency
        ]
    )
    roomy = ledger.carried(budget_tokens=10_000)
    assert roomy.left_out == () and roomy.message is not None and is_block(roomy.message)
    assert roomy.message["content"].startswith(HEADER)
    for instruction in ledger.instructions:
        assert f"- {instruction.text}" in roomy.message["content"]
    tight = ledger.carried(budget_tokens=250)  # 50 tokens: room for two at most
    assert [i.text for i in tight.left_out] == ["Please keep your answers under 100 words."]
    assert ledger.dropped == 1
    (event,) = logs.named("standing.instruction_dropped")
    assert event["left_out"] == 1
    assert ledger.carried(budget_tokens=10).message is None


def test_a_block_carried_before_is_adopted_unless_ended_here_since() -> None:
    """A compacted history holds the block an earlier pass put in: a new ledger (after a
    restart) takes its instructions as in force; one this ledger saw revoked stays ended."""
    first = StandingInstructions()
    first.observe([user("Call me Sam."), user("Reply in bullet points only.")])
    carried = first.carried(1_000).message
    assert carried is not None
    compacted = StandingInstructions.place([{"role": "system", "content": "agent"}], carried)
    assert compacted[1] is carried and StandingInstructions.is_block(compacted[1])
    restarted = StandingInstructions()
    restarted.observe(compacted)
    assert texts(restarted) == ["Call me Sam.", "Reply in bullet points only."]
    first.observe([user("Forget what I said about bullet points."), *compacted])
    assert texts(first) == ["Call me Sam."]
    assert StandingInstructions.strip(compacted) == [{"role": "system", "content": "agent"}]


def test_a_directive_about_a_named_file_is_a_task() -> None:
    assert find_directives("Please add type hints to billing/core.py.") == []
    assert find_directives("Always add type hints to the functions you write.") != []


def test_a_history_handed_again_and_extended_is_read_from_where_it_ended() -> None:
    """An agent hands the whole history every turn: only the new messages are read."""
    ledger = StandingInstructions()
    history = [user(f"message {n}") for n in range(1_000)]
    ledger.observe(history)
    read: list[str] = []

    def counting(message: dict[str, Any]) -> bool:
        read.append(message["content"])
        return False

    history.append(user("Call me Sam."))
    ledger.observe(history, skip=counting)
    assert read == ["Call me Sam."] and texts(ledger) == ["Call me Sam."]
    rebuilt = [dict(m) for m in history]  # new objects: read whole, nothing set twice
    ledger.observe(rebuilt, skip=counting)
    assert len(read) == 1 + len(rebuilt) and texts(ledger) == ["Call me Sam."]


def test_a_status_shows_the_instructions_redacted_and_the_request_carries_them_whole() -> None:
    ledger = StandingInstructions()
    rule = "Always call the API with the key sk-proj-AbCdEfGhIjKlMnOpQrStUv from now on."
    ledger.observe([user(rule)])
    assert "AbCdEfGhIjKlMnOp" not in str(ledger.shown()) and "[REDACTED]" in ledger.shown()[0]
    carried = ledger.carried(10_000).message
    assert carried is not None and rule in carried["content"]

"""Properties of compress over generated conversations (hypothesis)."""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from hermes_compressor import CompressorEngine
from hermes_compressor.assembly import SUMMARY_PREFIX
from hermes_compressor.boundaries import find_boundaries
from hermes_core import StandingInstructions, sanitize_tool_pairs, validate_messages
from hermes_core._tokens import estimate_message_tokens, estimate_tokens

text = st.text(alphabet=st.characters(codec="utf-8"), max_size=300)
image = st.just({"type": "image_url", "image_url": {"url": "data:image/png;base64,AAAA"}})
parts = st.lists(
    st.one_of(st.builds(lambda t: {"type": "text", "text": t}, text), image), max_size=3
)
content = st.one_of(text, parts, st.none(), st.just([]))


@st.composite
def tool_round(draw: st.DrawFn, index: int) -> list[dict[str, Any]]:
    """An assistant message with parallel calls, then their results in any order, some missing."""
    ids = [f"call_{index}_{k}" for k in range(draw(st.integers(1, 3)))]
    calls = [
        {"id": i, "type": "function", "function": {"name": "tool", "arguments": draw(text)}}
        for i in ids
    ]
    answered = draw(st.permutations(ids))[: draw(st.integers(0, len(ids)))]
    results = [{"role": "tool", "tool_call_id": i, "content": draw(text)} for i in answered]
    return [
        {"role": "assistant", "content": draw(st.one_of(st.none(), text)), "tool_calls": calls},
        *results,
    ]


@st.composite
def conversation(draw: st.DrawFn) -> list[dict[str, Any]]:
    messages: list[dict[str, Any]] = []
    if draw(st.booleans()):
        messages.append({"role": "system", "content": draw(text)})
    for index in range(draw(st.integers(0, 40))):
        kind = draw(st.sampled_from(["user", "assistant", "tools", "orphan"]))
        if kind == "user":
            messages.append({"role": "user", "content": draw(content)})
        elif kind == "assistant":
            messages.append({"role": "assistant", "content": draw(st.one_of(text, parts))})
        elif kind == "tools":
            messages.extend(draw(tool_round(index)))
        else:
            messages.append(
                {"role": "tool", "tool_call_id": f"ghost_{index}", "content": draw(text)}
            )
    return messages


def engine(first: int, last: int) -> CompressorEngine:
    compressor = CompressorEngine(
        {"compression": {"protect_first_n": first, "protect_last_n": last}}
    )
    compressor.update_model("model", 2_000)
    return compressor


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(conversation(), st.integers(0, 4), st.integers(1, 8), st.one_of(st.none(), text))
@example(  # found by the run: a message that states a rule, among 30 empty ones
    [*({"role": "user", "content": ""} for _ in range(28)), {"role": "user", "content": "NO A"},
     {"role": "user", "content": [{"type": "image_url", "image_url": {"url": "data:,A"}}]}],
    1, 1, None,
)  # fmt: skip
def test_compress_output_is_valid_no_longer_keeps_head_and_budgeted_tail_and_leaves_input_alone(
    messages: list[dict[str, Any]], first: int, last: int, focus: str | None
) -> None:
    original = copy.deepcopy(messages)
    compressor = engine(first, last)
    carried = compressor.compress(messages, focus_topic=focus)

    assert messages == original  # never mutates its input
    assert validate_messages(carried) == []
    assert estimate_tokens(carried) <= estimate_tokens(messages)
    # random text may state a rule ("NO A" bans A): its block follows the system prompt,
    # and the rest is laid out as without it
    out = [m for m in carried if not StandingInstructions.is_block(m)]

    clean = sanitize_tool_pairs(original)
    systems = 0
    while systems < len(clean) and clean[systems]["role"] == "system":
        systems += 1
    head = min(len(clean), systems + first)
    tokens = [compressor.count_tokens(m) for m in clean]
    budget = int(compressor.threshold_tokens * compressor.settings.target_ratio)
    bounds = find_boundaries(clean, tokens, compressor.settings, budget, SUMMARY_PREFIX)
    if sum(tokens[: bounds.head]) + sum(tokens[bounds.tail :]) >= compressor.threshold_tokens:
        head = systems  # the protected head would hold the threshold: only the system prompt
    assert out[:head] == clean[:head]  # system prompt and protected head, verbatim
    # the last protect_last_n messages are kept verbatim while they fit twice the tail budget
    ceiling = 2 * int(compressor.threshold_tokens * compressor.settings.target_ratio)
    kept = used = 0
    for message in reversed(clean[head:]):
        cost = estimate_message_tokens(message)
        if kept >= last or used + cost > ceiling:
            break
        kept, used = kept + 1, used + cost
    if kept:
        assert out[len(out) - kept + 1 :] == clean[len(clean) - kept + 1 :]
        edge_out, edge_in = out[len(out) - kept], clean[len(clean) - kept]
        if edge_out != edge_in:  # the summary was merged into the first tail message
            assert edge_out["role"] == edge_in["role"]
            merged = edge_out["content"]
            if isinstance(edge_in["content"], list):
                assert merged[1:] == edge_in["content"]
            else:
                assert merged.endswith(edge_in["content"] or "")

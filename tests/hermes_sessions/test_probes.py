"""Recall probes drawn from the transcript: a rare token reused far later, and standing
instructions; each names the messages it comes from and is asked at."""

from __future__ import annotations

from typing import Any

from hermes_core.hermes_agent.sessions._probes import MAX_PROBES, Probe, find_probes


def chat(count: int, said: dict[int, str]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for n in range(count):
        out += [
            {"role": "user", "content": said.get(n, f"tell me about the weather, please ({n})")},
            {"role": "assistant", "content": "It is fine."},
        ]
    return out


def test_a_rare_token_reused_far_later_is_a_probe_and_a_near_one_is_not() -> None:
    transcript = chat(
        40,
        {
            1: "The build broke with ZetaOverflowError in /srv/app/build_7.log.",
            30: "Is /srv/app/build_7.log the file we saw?",
            31: "And the one before, ZetaOverflowError?",
            32: "Use port 65123 for it.",
            34: "Port 65123 again.",  # four messages later: near, no probe
        },
    )
    probes = [p for p in find_probes(transcript) if p.kind == "rare_token"]
    assert {(p.token, p.source, p.asked_at) for p in probes} == {
        ("/srv/app/build_7.log", 2, 60),
        ("ZetaOverflowError", 2, 62),
    }
    request = [transcript[2], transcript[60]]
    assert probes[0].holds(request, transcript)
    assert not probes[0].holds([transcript[60]], transcript)
    # quoted whole inside another message (LCM's note of recalled originals) counts; a part
    # of it (the token alone, as a summary may carry it) does not
    whole = transcript[2]["content"]
    note = {"role": "user", "content": f"[LCM recalled from its summaries]\n\nM2: [user] {whole}"}
    assert probes[0].holds([note, transcript[60]], transcript)
    part = {"role": "user", "content": "[summary] the build log was /srv/app/build_7.log"}
    assert not probes[0].holds([part, transcript[60]], transcript)


def test_a_standing_instruction_is_asked_along_the_rest_of_the_session() -> None:
    transcript = chat(30, {3: "From now on, reply in French."})
    probes = [p for p in find_probes(transcript) if p.kind == "standing_instruction"]
    assert {p.source for p in probes} == {6} and len(probes) >= 5
    assert all(p.asked_at > 6 and transcript[p.asked_at]["role"] == "user" for p in probes)
    assert probes[0].holds([{"role": "system", "content": "x From now on, reply in French."}], [])


def test_probes_are_capped_farthest_first() -> None:
    said = {n: f"remember ticket T{n:05d}" for n in range(0, 60)}
    said.update({n: f"and ticket T{n - 60:05d}?" for n in range(60, 120)})
    probes = [p for p in find_probes(chat(120, said)) if p.kind == "rare_token"]
    assert len(probes) == MAX_PROBES
    assert all(isinstance(p, Probe) and p.asked_at - p.source == 120 for p in probes)


def test_messages_of_parts_are_read_as_their_text() -> None:
    transcript = chat(30, {})
    transcript[6] = {"role": "user", "content": [{"type": "text", "text": "Always cite sources."}]}
    probes = [p for p in find_probes(transcript) if p.kind == "standing_instruction"]
    assert probes and probes[0].token == "Always cite sources."
    carried = {"role": "system", "content": [{"type": "text", "text": "Always cite sources."}]}
    assert probes[0].holds([carried], transcript)

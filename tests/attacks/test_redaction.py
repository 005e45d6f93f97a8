"""Attacks on redaction: secrets that must not survive, inputs built to make it slow."""

from __future__ import annotations

import importlib
import json
import re
import sys
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from hermes_core import redaction
from hermes_core.redaction import MAX_WIDTH, Work, quote_body, redact, strip_url_credentials
from hermes_core.testing import EventCapture

#: The regular-expression parser (``re._parser`` from Python 3.11, ``sre_parse`` before).
sre_parse: Any = importlib.import_module(
    "re._parser" if sys.version_info >= (3, 11) else "sre_parse"
)

#: Fragments that start or almost complete a secret: repeated, they are what made the
#: earlier URL pattern backtrack quadratically (``a-a-a-...``).
FRAGMENTS = [
    "a-",
    "a",
    "-",
    "sk-",
    "sk-ant-",
    "a://",
    "://",
    "@",
    "a://b@",
    "bearer ",
    "Bearer\t",
    "token=",
    "api_key: ",
    "?key=",
    "&token=",
    "ghp_",
    "xoxb-",
    "AIza",
    "AKIA",
    "=",
    ":",
    "/",
    " ",
    "\n",
    "é",
    "x" * 17,
]


def test_every_pattern_examines_a_bounded_number_of_characters_from_any_start() -> None:
    for rule in redaction._RULES:
        _low, high = sre_parse.parse(rule.pattern.pattern).getwidth()
        assert high <= MAX_WIDTH, rule.pattern.pattern


@settings(max_examples=40, deadline=None)
@given(
    parts=st.lists(st.sampled_from(FRAGMENTS), min_size=1, max_size=6),
    size=st.integers(min_value=1, max_value=1_000_000),
)
def test_redaction_work_is_linear_in_adversarial_input_up_to_a_megabyte(
    parts: list[str], size: int
) -> None:
    unit = "".join(parts)
    text = (unit * (size // len(unit) + 1))[:size]
    work = Work()
    redact(text, work)
    # each rule runs over the text once (grown at most 3x by replacements), plus the runs
    # that extend long secrets, which it skips afterwards
    assert work.characters <= 3 * len(redaction._RULES) * max(len(text), 1)


@settings(max_examples=60, deadline=None)
@given(
    secret=st.from_regex(re.compile(r"sk-[A-Za-z0-9]{20,2000}"), fullmatch=True),
    before=st.text(max_size=200),
    after=st.sampled_from(["", " ", "\n", ", more text"]),
)
def test_an_api_key_of_any_length_leaves_no_character_behind(
    secret: str, before: str, after: str
) -> None:
    cleaned = redact(f"{before} {secret}{after}")
    assert secret[3:19] not in cleaned
    assert secret[-16:] not in cleaned


def test_an_api_key_in_a_url_query_string_is_redacted() -> None:
    url = "https://llm.example/v1?api_key=sk-live-abcdefghijklmnopqrstuvwx&model=m"
    assert "abcdefghijklmnop" not in strip_url_credentials(url)
    assert "model=m" in strip_url_credentials(url)
    assert "abcdefghijklmnop" not in redact(f"calling {url} failed")
    assert "hunter2" not in strip_url_credentials("http://admin:hunter2@host/v1?token=hunter2")


def test_quoting_a_megabyte_reply_redacts_only_what_is_quoted() -> None:
    body = "a-" * 500_000 + "sk-abcdefghijklmnopqrstuvwxyz"
    work = Work()
    quoted = quote_body(body, work=work)
    assert len(quoted) <= 200
    # quote_body's own work: bounded by what it quotes, never the megabyte
    assert 0 < work.characters <= 3 * len(redaction._RULES) * (200 + MAX_WIDTH)


def test_a_secret_straddling_the_quoting_cut_is_not_shown_in_part() -> None:
    secret = "sk-" + "Q" * 120
    quoted = quote_body("x" * 150 + " " + secret, limit=200)
    assert "QQQQ" not in quoted


def test_keys_that_count_tokens_are_not_taken_for_secrets() -> None:
    from hermes_core.redaction import is_secret_key

    for key in ("lcm.leaf_chunk_tokens", "max_tokens", "context.reply_reserve_tokens"):
        assert not is_secret_key(key), key
    for key in ("token", "auth_token", "github_token_value", "api_key", "db_password"):
        assert is_secret_key(key), key


#: Query keys of real credentials that no list of ours named (round 4): each value is a
#: plain run of letters, so only the key's shape can give it away.
UNLISTED_KEYS = [
    "auth_token",
    "client_secret",
    "private_token",
    "refresh_token",
    "X-Amz-Signature",
    "access-key",
    "X-Goog-Credential",
    "sessionKey",
]


def _secret_for(key: str) -> str:
    return "Zq" + "".join(c for c in key if c.isalpha()).upper() + "Vx"


def test_any_query_value_whose_key_looks_like_a_credential_is_redacted() -> None:
    query = "&".join(f"{key}={_secret_for(key)}" for key in UNLISTED_KEYS)
    url = f"https://llm.example/v1?page=2&{query}&max_tokens=5"
    for cleaned in (strip_url_credentials(url), redact(f"calling {url} failed")):
        for key in UNLISTED_KEYS:
            assert _secret_for(key) not in cleaned, key
            assert f"{key}=[REDACTED]" in cleaned
        assert "page=2" in cleaned and "max_tokens=5" in cleaned


def test_a_secret_named_assignment_in_text_is_redacted_whatever_its_prefix() -> None:
    text = "client_secret=ZqCLIENTVx, auth_token: ZqAUTHVx and refreshToken=ZqREFRESHVx"
    cleaned = redact(text)
    assert "Zq" not in cleaned
    assert redact("tokenizer=bert-base-uncased and threshold=0.75") == (
        "tokenizer=bert-base-uncased and threshold=0.75"
    )


def test_a_token_in_the_embedding_models_url_is_in_no_event(
    tmp_path: Path, logs: EventCapture
) -> None:
    from hermes_engine_lcm import LCMEngine

    model = "https://models.example/minilm.zip?download_token=ZqMODELTOKENVx"
    engine = LCMEngine({"lcm": {"embedding_model": model}}, hermes_home=tmp_path)
    engine.close()
    assert logs.named("lcm.embeddings_unavailable")
    assert "ZqMODELTOKENVx" not in json.dumps(logs.entries, default=str)

"""Attacks on redaction: secrets that must not survive, inputs built to make it slow."""

from __future__ import annotations

import importlib
import json
import re
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hermes_core import _redaction as redaction
from hermes_core._redaction import MAX_WIDTH, Work, quote_body, redact, strip_url_credentials
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
    from hermes_core._redaction import is_secret_key

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


#: One secret of each kind the rules know, in free text, built so that only its own rule
#: can catch it (no other rule's shape in it), with what must be kept around it.
EACH_RULE = {
    "URL user info": (
        "dial postgresql://admin:Hunter2Plain@db.internal:5432/lcm",
        "Hunter2Plain",
        "db.internal:5432/lcm",
    ),
    "OpenAI-style key": ("used sk-proj-AbCdEfGhIjKlMnOpQrSt today", "AbCdEfGhIjKlMnOp", "today"),
    "AWS access key": ("id AKIAABCDEFGHIJKLMNOP here", "AKIAABCDEFGHIJKLMNOP", "here"),
    "GitHub token": (
        "push ghp_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789 ok",
        "AbCdEfGhIjKlMnOpQrStUvWx",
        "ok",
    ),
    "Slack token": ("hook xoxb-1234567890-AbCdEfGhIj done", "AbCdEfGhIj", "done"),
    "Stripe secret key": ("charge sk_live_AbCdEfGhIjKlMnOpQrSt ok", "AbCdEfGhIjKlMnOp", "ok"),
    "GitHub fine-grained token": (
        "clone github_pat_11AbCdEfGh0IjKlMnOpQrSt_UvWxYz ok",
        "AbCdEfGh0IjKlMnOp",
        "ok",
    ),
    "Hugging Face token": ("pull hf_AbCdEfGhIjKlMnOpQrStUvWxYz0123 ok", "AbCdEfGhIjKlMnOp", "ok"),
    "GitLab token": ("push glpat-AbCdEfGhIjKlMnOpQrSt ok", "AbCdEfGhIjKlMnOp", "ok"),
    "npm token": ("publish npm_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789 ok", "AbCdEfGhIjKl", "ok"),
    "SendGrid key": (
        "mail SG.AbCdEfGhIjKlMnOpQrSt.UvWxYz0123456789AbCdEfGh ok",
        "UvWxYz0123456789",
        "ok",
    ),
    "JSON Web Token": (
        "cookie eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhbGljZSJ9.Sfl_KxwRJSMeKKF2QT4fw ok",
        "eyJzdWIiOiJhbGljZSJ9",
        "ok",
    ),
    "Google API key": (
        "maps AIzaSyAbCdEfGhIjKlMnOpQrStUvWxYz0123456 end",
        "AbCdEfGhIjKlMnOpQrSt",
        "end",
    ),
    "bearer token": (
        "Authorization header: Bearer AbCdEfGh.IjKlMnOp-QrSt ok",
        "AbCdEfGh.IjKlMnOp",
        "ok",
    ),
    "secret assignment": ("db_password: Plaintext77 then", "Plaintext77", "then"),
    "camelCase assignment": ("refreshToken=PlainRunOfLetters next", "PlainRunOfLetters", "next"),
    "signature parameter": (
        "GET /o?X-Amz-Signature=PlainRunOfLetters&part=2",
        "PlainRunOfLetters",
        "part=2",
    ),
    # a bracketed key (form encoding) is no assignment's key: the query rule's alone
    "bracketed query parameter": (
        "POST /o?auth[token]=PlainRunOfLetters&part=2",
        "PlainRunOfLetters",
        "part=2",
    ),
    "query parameter": (
        "GET /v1?api_key=PlainRunOfLetters&model=m",
        "PlainRunOfLetters",
        "model=m",
    ),
}


@pytest.mark.parametrize("kind", EACH_RULE)
def test_each_kind_of_secret_is_redacted_by_its_own_rule_and_the_rest_kept(kind: str) -> None:
    text, secret, kept = EACH_RULE[kind]
    cleaned = redact(text)
    assert secret not in cleaned and "[REDACTED]" in cleaned
    assert kept in cleaned


def test_words_that_only_count_tokens_are_left_as_they_are() -> None:
    text = "max_tokens=4096 and prompt_tokens: 1234567 and tokenizer=wordpiece2"
    assert redact(text) == text


@pytest.mark.parametrize(
    "template",
    [
        "key sk-{secret} end",
        "key sk_live_{secret} end",
        "key github_pat_{secret} end",
        "key hf_{secret} end",
        "key glpat-{secret} end",
        "key npm_{secret} end",
        "jwt eyJ{secret}.eyJ{secret}.{secret} end",
        "Authorization: Bearer {secret} end",
        "client_secret={secret} end",
        "GET /v1?api_key={secret}&end=1",
        "https://user:{secret}@host/ end",
    ],
)
def test_a_secret_longer_than_any_pattern_reaches_is_redacted_to_its_last_character(
    template: str,
) -> None:
    secret = "A" * (3 * MAX_WIDTH) + "TailEnd"  # past every pattern's width
    cleaned = redact(template.format(secret=secret))
    assert "AAAA" not in cleaned and "TailEnd" not in cleaned
    assert "end" in cleaned


@pytest.mark.parametrize("kept", [0, 5, 12])
def test_a_secret_cut_short_by_the_quoting_limit_is_still_redacted(kept: int) -> None:
    """Only ``kept`` characters of the key fit before the cut: too few for its pattern
    alone, so the text is redacted with room past the cut before it is cut."""
    secret = "sk-" + "Q" * 120
    text = "x" * (200 - 4 - 3 - kept) + " " + secret + " tail"
    quoted = quote_body(text, limit=200)
    assert "QQ" not in quoted and len(quoted) <= 200

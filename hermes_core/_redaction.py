"""Keeping secrets out of logs, errors, status and what is sent to a summariser.

One module for the host, the LLM client and every engine: API keys, bearer
tokens, ``key=value`` assignments of secret-named keys, credentials in URLs
(user info, and secret-named query parameters) are replaced with
``[REDACTED]``; a value whose key names a secret is never shown at all; text
quoted from a server is cut first, then redacted.

A key names a secret by its shape, not by a list of whole names: any key one
of whose words is a credential word (``client_secret``, ``X-Amz-Signature``,
``refreshToken``, ``access-key``; see :func:`is_secret_key`).

Linear in its input, whatever the input: each pattern can match at most a
bounded number of characters from any starting point (``MAX_WIDTH``, checked
by the tests from the compiled patterns), and a secret longer than that is
covered by extending the match over the rest of its run of characters with a
possessive scan. No pattern nests quantifiers.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import urlsplit, urlunsplit

__all__ = [
    "MAX_WIDTH",
    "REDACTED",
    "describe_secret",
    "is_secret_key",
    "quote_body",
    "redact",
    "strip_url_credentials",
]

REDACTED = "[REDACTED]"
#: The most characters any redaction pattern examines from one starting point.
MAX_WIDTH = 1024


@dataclass(frozen=True)
class _Rule:
    """One kind of secret: a pattern of bounded width, the run that extends a match (the rest
    of a long secret), and how the match is written back."""

    pattern: re.Pattern[str]
    rest: re.Pattern[str] | None
    #: What the match (with its rest) is written as; None when its key (group 1) names no
    #: secret: the search goes on after that key (no key that starts inside it names one).
    keep: Callable[[re.Match[str]], str | None]


def _whole(_: re.Match[str]) -> str:
    return REDACTED


def _after_first(match: re.Match[str]) -> str:
    return f"{match.group(1)} {REDACTED}"


def _secret_assignment(match: re.Match[str]) -> str | None:
    """``key: value`` with the value redacted when ``key`` names a secret."""
    if not is_secret_key(match.group(1)):
        return None
    return f"{match.group(1)}{match.group(2)}{REDACTED}"


def _secret_parameter(match: re.Match[str]) -> str | None:
    """``?key=value`` (or ``&``, ``;``) with the value redacted when ``key`` names a secret."""
    if not is_secret_key(match.group(1)[1:]):
        return None
    return f"{match.group(1)}={REDACTED}"


def _rule(pattern: str, rest: str | None, keep: Callable[[re.Match[str]], str | None]) -> _Rule:
    return _Rule(re.compile(pattern), re.compile(rest) if rest else None, keep)


_KEY_CHARS = r"[A-Za-z0-9_\-]"
#: A character of a key in an assignment (``client_secret: ...``), and of a query key.
_NAME_CHAR = r"[A-Za-z0-9_.\-]"
_PARAMETER_CHAR = r"[^=&#\s?;]"


def _secret_like(char: str) -> str:
    """A key of at most 128 ``char`` that holds a word a secret's name may hold: only such
    keys reach :func:`is_secret_key`. Read possessively (never backtracked into), so each
    starting point costs at most 128 characters."""
    words = "key|sig|auth|pass|pwd|token|secret|credential|jwt"
    return rf"(?={char}{{0,124}}?(?i:{words})){char}{{1,128}}+"


_RULES: tuple[_Rule, ...] = (
    # credentials in a URL's user info: scheme://user:password@host
    _rule(
        r"(?i)\b([a-z][a-z0-9+.\-]{0,31}://)[^/\s@]{1,512}@", None, lambda m: f"{m[1]}{REDACTED}@"
    ),
    # ... and user info too long for that pattern: no host is 513 characters before its path,
    # so such a run after the scheme is withheld whole, to its end
    _rule(
        r"(?i)\b([a-z][a-z0-9+.\-]{0,31}://)[^/\s@]{513}",
        r"[^/\s@]*",
        lambda m: f"{m[1]}{REDACTED}",
    ),
    # provider API keys: OpenAI/Anthropic style, AWS, GitHub, Slack, Google
    _rule(rf"\bsk-(?:ant-|proj-|live-)?{_KEY_CHARS}{{16,512}}", rf"{_KEY_CHARS}*", _whole),
    _rule(r"\bAKIA[0-9A-Z]{16}\b", None, _whole),
    _rule(r"\bgh[pousr]_[A-Za-z0-9]{30,512}", r"[A-Za-z0-9]*", _whole),
    _rule(r"\bxox[abposr]-[A-Za-z0-9\-]{10,512}", r"[A-Za-z0-9\-]*", _whole),
    _rule(rf"\bAIza{_KEY_CHARS}{{30,512}}", rf"{_KEY_CHARS}*", _whole),
    # Stripe (sk_live_, rk_test_), GitHub fine-grained, Hugging Face, GitLab, npm, SendGrid
    _rule(r"\b[rs]k_(?:live|test)_[A-Za-z0-9]{16,512}", r"[A-Za-z0-9]*", _whole),
    _rule(r"\bgithub_pat_[A-Za-z0-9_]{22,512}", r"[A-Za-z0-9_]*", _whole),
    _rule(r"\bhf_[A-Za-z0-9]{30,512}", r"[A-Za-z0-9]*", _whole),
    _rule(r"\bglpat-[A-Za-z0-9_\-]{20,512}", r"[A-Za-z0-9_\-]*", _whole),
    _rule(r"\bnpm_[A-Za-z0-9]{36,512}", r"[A-Za-z0-9]*", _whole),
    _rule(r"\bSG\.[A-Za-z0-9_\-]{16,64}\.[A-Za-z0-9_\-]{16,512}", r"[A-Za-z0-9_\-]*", _whole),
    # a JSON Web Token (a JSON header, '{"' being "eyJ" in base64url, then a payload and a
    # signature after dots): from its header to the end of its last part
    _rule(
        r"\beyJ[A-Za-z0-9_\-]{16,1000}",
        r"[A-Za-z0-9_\-]*(?:\.[A-Za-z0-9_\-]*){0,2}",
        _whole,
    ),
    # bearer tokens, and "api_key: ..." style assignments
    _rule(
        r"(?i)\b(bearer|basic)[ \t]{1,64}[A-Za-z0-9._~+/\-]{8,512}",
        r"[A-Za-z0-9._~+/\-]*=*",
        _after_first,
    ),
    _rule(
        rf"(?<!{_NAME_CHAR})({_secret_like(_NAME_CHAR)})"
        r"(\"?[ \t]{0,16}[:=][ \t]{0,16}\"?)[^\s\"',;&]{6,512}",
        r"[^\s\"',;&]*",
        _secret_assignment,
    ),
    # secret-named query parameters: ?api_key=..., &X-Amz-Signature=...
    _rule(
        rf"([?&;]{_secret_like(_PARAMETER_CHAR)})=[^&#\s]{{1,512}}",
        r"[^&#\s]*",
        _secret_parameter,
    ),
)

#: Words of a key name that say its value is a secret, found in the key's words (split at
#: punctuation and camelCase, lower case): ``api_key``, ``X-Amz-Signature``,
#: ``refreshToken``, ``client_secret``. "token" counted ("max_tokens", "tokenizer") is not.
_SECRET_NAMES = re.compile(
    r"api ?key|apikey|token(?!s|i[sz])|secret|passw(?:or)?d|\bpwd\b|authori[sz]ation|credential"
    r"|private ?key|signature|\b(?:key|sig|auth|pass|jwt)\b"
)


class Work:
    """How many characters the patterns were run over (the tests bound it by the input)."""

    __slots__ = ("characters",)

    def __init__(self) -> None:
        self.characters = 0


def _apply(rule: _Rule, text: str, work: Work) -> str:
    if not rule.pattern.search(text):
        work.characters += len(text)
        return text
    out: list[str] = []
    position = 0
    while True:
        match = rule.pattern.search(text, position)
        if match is None:
            work.characters += len(text) - position
            out.append(text[position:])
            return "".join(out)
        kept = rule.keep(match)
        if kept is None:  # no secret here: look again after the key (its value unscanned)
            end = match.end(1)
            kept = text[match.start() : end]
        elif rule.rest is not None:
            rest = rule.rest.match(text, match.end())
            assert rest is not None  # a starred run always matches
            end = rest.end()
        else:
            end = match.end()
        work.characters += end - position
        out.append(text[position : match.start()])
        out.append(kept)
        position = end


def redact(text: str, work: Work | None = None) -> str:
    """``text`` with API keys, bearer tokens, secret assignments and URL credentials replaced.

    Linear in ``len(text)``; ``work``, when given, counts the characters the
    patterns were run over.
    """
    counted = work if work is not None else Work()
    for rule in _RULES:
        text = _apply(rule, text, counted)
    return text


def strip_url_credentials(url: str) -> str:
    """``url`` without its user info and with secret-named query values redacted
    (``http://admin:pw@host/v1?api_key=sk-1`` -> ``http://host/v1?api_key=[REDACTED]``)."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return redact(url)
    host = parts.netloc.rsplit("@", 1)[1] if "@" in parts.netloc else parts.netloc
    query = redact(f"?{parts.query}")[1:] if parts.query else parts.query
    if host == parts.netloc and query == parts.query:
        return url
    return urlunsplit((parts.scheme, host, parts.path, query, parts.fragment))


def is_secret_key(name: str) -> bool:
    """Whether a configuration key, header or query parameter named ``name`` holds a secret:
    one of its words (the last dotted part, split at punctuation and camelCase) is a
    credential word (``api_key``, ``auth_token``, ``client_secret``, ``X-Amz-Signature``,
    ``access-key``, ``password``, ``authorization``, ...)."""
    return _names_a_secret(name.rsplit(".", 1)[-1][:MAX_WIDTH])


@functools.lru_cache(maxsize=1024)  # the same few keys recur in a text: 8x faster on them
def _names_a_secret(key: str) -> bool:
    words = re.sub(r"[^a-z0-9]+", " ", re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", key).lower())
    return bool(_SECRET_NAMES.search(words))


def describe_secret(value: object) -> str:
    """What may be said of a secret value: its type and length, never its text."""
    size = f", {len(value)} characters" if isinstance(value, (str, bytes)) else ""
    return f"{type(value).__name__} (hidden{size})"


def quote_body(text: str, limit: int = 200, work: Work | None = None) -> str:
    """Text a server (or a user) sent, fit to quote in an error: at most ``limit`` characters,
    redacted.

    The text is cut before it is redacted, with room for a secret that
    straddles the cut, so the cost does not grow with the text's length (``work``,
    when given, counts the characters the patterns were run over).
    """
    head = text[: limit + MAX_WIDTH]
    cleaned = redact(head, work)
    if len(cleaned) <= limit and len(head) == len(text):
        return cleaned
    return cleaned[: max(0, limit - 3)] + "..."

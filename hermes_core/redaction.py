"""Keeping secrets out of logs, errors, status and what is sent to a summariser.

One module for the host, the LLM client and every engine: API keys, bearer
tokens, ``key=value`` assignments of secret-named keys and credentials in
URLs are replaced with ``[REDACTED]``; a value whose key names a secret is
never shown at all; text quoted from a server is redacted and capped.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit, urlunsplit

__all__ = [
    "REDACTED",
    "describe_secret",
    "is_secret_key",
    "quote_body",
    "redact",
    "strip_url_credentials",
]

REDACTED = "[REDACTED]"

_PATTERNS = [
    # provider API keys: OpenAI/Anthropic style, AWS, GitHub, Slack, Google
    re.compile(r"\bsk-(?:ant-|proj-|live-)?[A-Za-z0-9_\-]{16,}"),
    re.compile(r"\bAKIA[0-9A-Z]{16}\b"),
    re.compile(r"\bgh[pousr]_[A-Za-z0-9]{30,}\b"),
    re.compile(r"\bxox[abposr]-[A-Za-z0-9\-]{10,}"),
    re.compile(r"\bAIza[0-9A-Za-z_\-]{30,}"),
    # bearer tokens and "api_key: ..." style assignments
    re.compile(r"(?i)\b(bearer|basic)\s+[A-Za-z0-9._~+/\-]{8,}=*"),
    re.compile(
        r"(?i)\b(api[_-]?key|secret|password|passwd|token|authorization)"
        r"(\"?\s*[:=]\s*\"?)[^\s\"',;]{6,}"
    ),
]
_URL_CREDENTIALS = re.compile(r"(?i)\b([a-z][a-z0-9+.\-]*://)([^/\s@]+)@")
#: Parts of a key name that say its value is a secret.
_SECRET_NAMES = re.compile(
    r"(?i)(api[_-]?key|apikey|token|secret|passw(or)?d|authorization|credential|private[_-]?key)"
)


def redact(text: str) -> str:
    """``text`` with API keys, bearer tokens, secret assignments and URL credentials replaced."""
    text = _URL_CREDENTIALS.sub(lambda m: f"{m.group(1)}{REDACTED}@", text)
    for pattern in _PATTERNS:
        if pattern.groups == 0:
            text = pattern.sub(REDACTED, text)
        elif pattern.groups == 1:
            text = pattern.sub(lambda m: f"{m.group(1)} {REDACTED}", text)
        else:
            text = pattern.sub(lambda m: f"{m.group(1)}{m.group(2)}{REDACTED}", text)
    return text


def strip_url_credentials(url: str) -> str:
    """``url`` without its user info (``http://admin:pw@host/v1`` -> ``http://host/v1``)."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return redact(url)
    if "@" not in parts.netloc:
        return url
    host = parts.netloc.rsplit("@", 1)[1]
    return urlunsplit((parts.scheme, host, parts.path, parts.query, parts.fragment))


def is_secret_key(name: str) -> bool:
    """Whether a configuration key or header named ``name`` holds a secret
    (``api_key``, ``token``, ``secret``, ``password``, ``authorization``, ...)."""
    return bool(_SECRET_NAMES.search(name.rsplit(".", 1)[-1]))


def describe_secret(value: object) -> str:
    """What may be said of a secret value: its type and length, never its text."""
    size = f", {len(value)} characters" if isinstance(value, (str, bytes)) else ""
    return f"{type(value).__name__} (hidden{size})"


def quote_body(text: str, limit: int = 200) -> str:
    """Text a server sent, fit to quote in an error: redacted, at most ``limit`` characters."""
    cleaned = redact(text)
    return cleaned if len(cleaned) <= limit else cleaned[: limit - 3] + "..."

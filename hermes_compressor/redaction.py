"""Secrets are removed from whatever is sent to the summariser."""

from __future__ import annotations

import re

__all__ = ["redact"]

_PATTERNS = [
    # provider API keys: OpenAI/Anthropic style, AWS, GitHub, Slack, Google
    re.compile(r"\bsk-(?:ant-|proj-)?[A-Za-z0-9_\-]{16,}"),
    re.compile(r"\bAKIA[0-9A-Z]{16}\b"),
    re.compile(r"\bgh[pousr]_[A-Za-z0-9]{30,}\b"),
    re.compile(r"\bxox[abposr]-[A-Za-z0-9\-]{10,}"),
    re.compile(r"\bAIza[0-9A-Za-z_\-]{30,}"),
    # bearer tokens and "api_key: ..." style assignments
    re.compile(r"(?i)\b(bearer)\s+[A-Za-z0-9._~+/\-]{12,}=*"),
    re.compile(r"(?i)\b(api[_-]?key|secret|password|passwd|token)(\"?\s*[:=]\s*\"?)[^\s\"',;]{6,}"),
]
_URL_CREDENTIALS = re.compile(r"(?i)\b([a-z][a-z0-9+.\-]*://)([^/\s:@]+):([^/\s@]+)@")
REDACTED = "[REDACTED]"


def redact(text: str) -> str:
    """``text`` with API keys, bearer tokens, key assignments and URL credentials replaced."""
    text = _URL_CREDENTIALS.sub(lambda m: f"{m.group(1)}{REDACTED}@", text)
    for pattern in _PATTERNS:
        if pattern.groups == 0:
            text = pattern.sub(REDACTED, text)
        elif pattern.groups == 1:
            text = pattern.sub(lambda m: f"{m.group(1)} {REDACTED}", text)
        else:
            text = pattern.sub(lambda m: f"{m.group(1)}{m.group(2)}{REDACTED}", text)
    return text

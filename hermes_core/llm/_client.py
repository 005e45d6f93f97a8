"""An OpenAI-compatible chat-completions client for engines (summaries, condensation).

Built on httpx for its explicit connect/read timeouts and pooled
connections; the OpenAI SDK would bring pydantic and a larger surface for
the one endpoint engines need.
"""

from __future__ import annotations

import json
import random
import time
import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import httpx

from hermes_core._errors import (
    LLMAuthError,
    LLMError,
    LLMNetworkError,
    LLMQuotaError,
    LLMResponseError,
)
from hermes_core._log import logger
from hermes_core._redaction import quote_body, strip_url_credentials
from hermes_core.llm._config import AuxiliaryLLMConfig

__all__ = ["ChatClient", "ChatResult"]

_RETRIED = {429, 500, 502, 503, 504}
_MAX_BACKOFF = 8.0
#: The most bytes of an answer read, after decompression: a chat completion is kilobytes, and
#: a gzip bomb (1 MB inflating to 1 GiB) stops here.
MAX_ANSWER_BYTES = 8 * 1024 * 1024


@dataclass(frozen=True)
class ChatResult:
    """The text of the first choice and the usage the server reported."""

    text: str
    usage: dict[str, Any]
    model: str


class ChatClient:
    """Calls ``POST {base_url}/chat/completions``; thread-safe; one instance per host.

    :meth:`complete` retries 429 and 5xx answers up to ``max_retries`` times
    with exponential backoff (honouring ``Retry-After``), and raises one of
    the :mod:`hermes_core._errors` classes when it gives up.
    """

    def __init__(
        self,
        config: AuxiliaryLLMConfig,
        *,
        env: Mapping[str, str] | None = None,
        transport: httpx.BaseTransport | None = None,
        backoff_seconds: float = 0.5,
    ) -> None:
        self.config = config
        #: Where requests go, as errors and events may name it: no credentials.
        self.where = strip_url_credentials(config.base_url)
        self._backoff = backoff_seconds
        # only encodings decoded here, within MAX_ANSWER_BYTES (see _Decoder)
        headers = {"Content-Type": "application/json", "Accept-Encoding": "gzip, deflate"}
        key = config.api_key(env)
        if config.api_key_env and key is None:
            logger.warning(
                "llm.api_key_missing",
                variable=config.api_key_env,
                hint=f"export {config.api_key_env}=... or remove api_key_env for a keyless server",
            )
        if key:
            headers["Authorization"] = f"Bearer {key}"
        self._http = httpx.Client(
            base_url=config.base_url,
            headers=headers,
            timeout=httpx.Timeout(
                config.timeout_seconds, connect=min(10.0, config.timeout_seconds)
            ),
            transport=transport,
        )

    def close(self) -> None:
        """Close pooled connections."""
        self._http.close()

    def complete(
        self,
        messages: Sequence[Mapping[str, Any]],
        *,
        max_tokens: int | None = None,
        temperature: float | None = None,
        deadline: float | None = None,
    ) -> ChatResult:
        """One chat completion; returns the first choice's text.

        ``timeout_seconds`` bounds the whole request, retries and a slowly
        trickling answer included, not each read; ``deadline`` (a
        ``time.monotonic()`` value, e.g. the host's pass deadline) shortens it
        further. Raises :class:`~hermes_core._errors.LLMAuthError`
        (401/403), :class:`~hermes_core._errors.LLMQuotaError` (402, quota
        429, or 429 after all retries),
        :class:`~hermes_core._errors.LLMNetworkError` (connection failure,
        time up) or :class:`~hermes_core._errors.LLMResponseError`
        (malformed body, no text, a redirect, other 4xx, 5xx after all
        retries).
        """
        body: dict[str, Any] = {
            **self.config.extra_body,
            "model": self.config.model,
            "messages": list(messages),
        }
        if max_tokens is not None:
            body["max_tokens"] = max_tokens
        if temperature is not None:
            body["temperature"] = temperature
        ends = time.monotonic() + self.config.timeout_seconds
        if deadline is not None:
            ends = min(ends, deadline)
        attempt = 0
        while True:
            status, headers, content = self._post(body, ends)
            if 300 <= status < 400:
                target = strip_url_credentials(headers.get("Location", "(no Location)"))
                raise LLMResponseError(
                    f"{self.where}: HTTP {status} redirect to {quote_body(target)}; redirects "
                    "are not followed: set auxiliary.compression.base_url to the final address",
                    status=status,
                )
            if status < 400:
                return self._parse(status, content)
            text = content.decode("utf-8", "replace")
            retry = status in _RETRIED and attempt < self.config.max_retries
            delay = self._delay(attempt, headers)
            # another try only while it may help and time is left for it
            if not retry or _quota(status, text) or time.monotonic() + delay >= ends:
                raise _error_for(status, text, self.where)
            logger.info("llm.retry", status=status, attempt=attempt + 1, delay_seconds=delay)
            time.sleep(delay)
            attempt += 1

    def _post(self, body: dict[str, Any], ends: float) -> tuple[int, Mapping[str, str], bytes]:
        """POST ``body``, reading the answer while time is left; (status, headers, body)."""
        left = ends - time.monotonic()
        if left <= 0:
            raise self._late()
        timeout = httpx.Timeout(left, connect=min(10.0, left))
        try:
            with self._http.stream(
                "POST", "/chat/completions", json=body, timeout=timeout
            ) as response:
                decoder = _Decoder(response.headers.get("Content-Encoding", ""), self.where)
                for chunk in response.iter_raw():
                    decoder.feed(chunk)
                    if time.monotonic() > ends:  # a server trickling bytes keeps no one waiting
                        raise self._late()
                return response.status_code, response.headers, decoder.finish()
        except httpx.TimeoutException as exc:
            raise self._late() from exc
        except httpx.HTTPError as exc:
            raise LLMNetworkError(
                f"{self.where}: {type(exc).__name__}: {quote_body(str(exc))}"
            ) from exc

    def _late(self) -> LLMNetworkError:
        return LLMNetworkError(
            f"{self.where}: no complete answer within {self.config.timeout_seconds:g}s "
            "(or the pass's deadline)"
        )

    def _delay(self, attempt: int, headers: Mapping[str, str]) -> float:
        retry_after = headers.get("Retry-After", "")
        try:
            wanted = float(retry_after)
        except ValueError:
            wanted = self._backoff * (2**attempt)
        return min(_MAX_BACKOFF, max(0.0, wanted)) * (1 + random.random() * 0.1)

    def _parse(self, status: int, content: bytes) -> ChatResult:
        try:
            data = json.loads(content)
            message = data["choices"][0]["message"]
            text = message.get("content")
        except (ValueError, KeyError, IndexError, TypeError, AttributeError) as exc:
            raise LLMResponseError(
                f"{self.where}: malformed chat-completions body "
                f"({type(exc).__name__}): {quote_body(content.decode('utf-8', 'replace'))!r}",
                status=status,
            ) from None
        if isinstance(text, list):  # content parts
            text = "".join(p.get("text", "") for p in text if isinstance(p, dict))
        if not isinstance(text, str) or not text.strip():
            raise LLMResponseError(f"{self.where}: the answer has no text", status=status)
        usage = data.get("usage") if isinstance(data.get("usage"), dict) else {}
        return ChatResult(text=text, usage=usage, model=str(data.get("model", self.config.model)))


class _Decoder:
    """An answer's body, decoded (identity, gzip or deflate) and capped at
    :data:`MAX_ANSWER_BYTES` however small its compressed form."""

    def __init__(self, encoding: str, where: str) -> None:
        self._where = where
        self._parts: list[bytes] = []
        self._size = 0
        names = [part.strip().lower() for part in encoding.split(",") if part.strip()]
        names = [name for name in names if name != "identity"]
        if not names:
            self._inflate: zlib._Decompress | None = None
        elif names == ["gzip"] or names == ["x-gzip"]:
            self._inflate = zlib.decompressobj(16 + zlib.MAX_WBITS)
        elif names == ["deflate"]:
            self._inflate = zlib.decompressobj()
        else:
            raise LLMResponseError(
                f"{where}: the answer is encoded as {quote_body(encoding, 40)!r}, which this "
                "client did not ask for (it accepts gzip and deflate)"
            )

    def _keep(self, data: bytes) -> None:
        self._size += len(data)
        if self._size > MAX_ANSWER_BYTES:
            raise LLMResponseError(
                f"{self._where}: the answer is over {MAX_ANSWER_BYTES // (1024 * 1024)} MiB "
                "once decoded; it was not read further"
            )
        self._parts.append(data)

    def feed(self, chunk: bytes) -> None:
        if self._inflate is None:
            self._keep(chunk)
            return
        data = chunk
        while data:
            # at most one byte past the cap per step: a bomb is never inflated whole
            self._keep(self._inflate.decompress(data, MAX_ANSWER_BYTES - self._size + 1))
            data = self._inflate.unconsumed_tail

    def finish(self) -> bytes:
        if self._inflate is not None:
            self._keep(self._inflate.flush(MAX_ANSWER_BYTES - self._size + 1))
        return b"".join(self._parts)


def _quota(status: int, text: str) -> bool:
    """Whether a 429 says the quota is exhausted (retrying cannot help)."""
    if status != 429:
        return False
    return "insufficient_quota" in text or "quota" in text.lower()


def _error_for(status: int, text: str, base_url: str) -> LLMError:
    where = f"{base_url}: HTTP {status}: {quote_body(text)!r}"
    if status in (401, 403):
        return LLMAuthError(where, status=status)
    if status in (402, 429):
        return LLMQuotaError(where, status=status)
    return LLMResponseError(where, status=status)

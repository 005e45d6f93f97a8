"""Stand-ins for the three Hermes Agent modules a context-engine plugin imports.

``agent.context_engine`` (the base class), ``agent.auxiliary_client``
(``call_llm``) and ``hermes_cli.config`` (``get_hermes_home``). When Hermes
Agent is installed its own modules are used and nothing here is installed.
Otherwise :func:`install` puts module objects under those names into
``sys.modules`` (never onto disk) the first time a Hermes plugin is loaded,
and they stay for the life of that process, because a plugin may import them
lazily while it runs; a process that loads no Hermes plugin never sees them.

``call_llm`` answers with the auxiliary LLM of the host the engine runs on:
each wrapped engine call binds it (:func:`bound`), per thread.
"""

from __future__ import annotations

import importlib.metadata
import os
import sys
import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from types import ModuleType, SimpleNamespace
from typing import Any

from hermes_core.hermes_agent.hermes_abc import HermesContextEngine
from hermes_core.llm import LLM, AuxiliaryLLMConfig

__all__ = ["bound", "call_llm", "get_hermes_home", "hermes_installed", "install"]

#: Attribute set on every module object installed here.
SHIM_MARKER = "__hermes_context_shim__"

_llm: ContextVar[LLM | None] = ContextVar("hermes_context_shim_llm", default=None)
_home: ContextVar[Path | None] = ContextVar("hermes_context_shim_home", default=None)
#: What a thread with nothing bound uses: the binding made last (a plugin's own thread).
_fallback: dict[str, Any] = {"llm": None, "home": None}
_install_lock = threading.Lock()


def hermes_installed() -> bool:
    """Whether the real Hermes Agent distribution is installed in this environment."""
    try:
        importlib.metadata.distribution("hermes-agent")
    except importlib.metadata.PackageNotFoundError:
        return False
    return True


@contextmanager
def bound(llm: LLM | None, home: Path | None) -> Iterator[None]:
    """Within the block (on this thread), ``call_llm`` uses ``llm`` and ``get_hermes_home``
    returns ``home``."""
    _fallback.update(llm=llm, home=home)
    llm_token = _llm.set(llm)
    home_token = _home.set(home)
    try:
        yield
    finally:
        _llm.reset(llm_token)
        _home.reset(home_token)


def get_hermes_home() -> Path:
    """The ``$HERMES_HOME`` of the host the plugin runs on (default ``~/.hermes``)."""
    home = _home.get() or _fallback["home"]
    if home is not None:
        return Path(home)
    value = os.environ.get("HERMES_HOME")
    return Path(value).expanduser() if value else Path("~/.hermes").expanduser()


def _response(text: str, usage: Mapping[str, Any], model: str) -> SimpleNamespace:
    """An OpenAI-shaped chat completion holding ``text``."""
    message = SimpleNamespace(role="assistant", content=text, tool_calls=None)
    choice = SimpleNamespace(index=0, message=message, finish_reason="stop")
    return SimpleNamespace(
        choices=[choice],
        usage=SimpleNamespace(**dict(usage)),
        model=model,
        object="chat.completion",
    )


def call_llm(
    task: str | None = None,
    *,
    provider: str | None = None,
    model: str | None = None,
    base_url: str | None = None,
    api_key: str | None = None,
    main_runtime: Mapping[str, Any] | None = None,
    messages: list[dict[str, Any]],
    temperature: float | None = None,
    max_tokens: int | None = None,
    tools: list[Any] | None = None,
    timeout: float | None = None,
    extra_body: Mapping[str, Any] | None = None,
    reasoning_config: Mapping[str, Any] | None = None,
    api_mode: str | None = None,
    stream: bool = False,
    stream_options: Mapping[str, Any] | None = None,
) -> Any:
    """Hermes Agent's ``call_llm`` on hermes-context's client: one chat completion.

    With ``base_url`` and ``model`` the call goes there (``api_key``,
    ``timeout``, ``extra_body`` apply); otherwise to the host's auxiliary LLM
    (``auxiliary.compression``, or the client handed to the registry).
    Returns an object shaped like OpenAI's: ``.choices[0].message.content``,
    ``.usage``, ``.model``. ``stream`` and ``tools`` are not supported here;
    ``provider``, ``main_runtime``, ``reasoning_config`` and ``api_mode``
    are Hermes Agent's routing and are not used. Raises RuntimeError when no
    LLM is configured, as Hermes Agent does, and
    :class:`~hermes_core.llm.LLMError` when the call fails.
    """
    if stream or tools:
        raise RuntimeError(
            "call_llm(stream=True or tools=...) is not supported by hermes-context's host; "
            "run the plugin in Hermes Agent for those"
        )
    if base_url and model:
        from hermes_core.llm.client import ChatClient  # httpx loads on first use only

        settings = AuxiliaryLLMConfig(
            base_url=base_url.rstrip("/"),
            model=model,
            timeout_seconds=float(timeout) if timeout else AuxiliaryLLMConfig.timeout_seconds,
            api_key_value=api_key or None,
            extra_body=dict(extra_body or {}),
        )
        client = ChatClient(settings)
        try:
            result = client.complete(messages, max_tokens=max_tokens, temperature=temperature)
        finally:
            client.close()
        return _response(result.text, result.usage, result.model)
    llm = _llm.get() or _fallback["llm"]
    if llm is None:
        raise RuntimeError(
            f"no auxiliary LLM for task {task or 'compression'!r}: set "
            "auxiliary.compression.base_url and model in config.yaml"
        )
    answer = llm.complete(messages, max_tokens=max_tokens, temperature=temperature)
    usage = getattr(answer, "usage", None) or {}
    return _response(answer.text, usage, str(getattr(answer, "model", "") or ""))


def _module(name: str, package: bool = False, **attributes: Any) -> ModuleType:
    module = ModuleType(name, f"hermes-context's stand-in for Hermes Agent's {name}")
    if package:
        module.__path__ = []
    setattr(module, SHIM_MARKER, True)
    for key, value in attributes.items():
        setattr(module, key, value)
    return module


def install() -> bool:
    """Make the three Hermes module names importable; returns whether stand-ins are in use.

    Nothing is done when Hermes Agent is installed (its modules serve), and
    a name some other package already holds in ``sys.modules`` is left alone.
    """
    if hermes_installed():
        return False
    with _install_lock:
        modules = {
            "agent": _module("agent", package=True),
            "agent.context_engine": _module(
                "agent.context_engine", ContextEngine=HermesContextEngine
            ),
            "agent.auxiliary_client": _module("agent.auxiliary_client", call_llm=call_llm),
            "hermes_cli": _module("hermes_cli", package=True),
            "hermes_cli.config": _module("hermes_cli.config", get_hermes_home=get_hermes_home),
        }
        for name, module in modules.items():
            if name in sys.modules:
                continue
            sys.modules[name] = module
            parent, _, child = name.rpartition(".")
            if parent and getattr(sys.modules.get(parent), SHIM_MARKER, False):
                setattr(sys.modules[parent], child, module)
    return True

"""Stand-ins for the Hermes Agent modules a context-engine plugin imports.

``agent`` and ``agent.context_engine`` (the base class),
``agent.context_compressor`` (``ContextCompressor``, backed by our compressor:
see :mod:`~hermes_core.sources.hermes_plugins._compressor_stand_in`),
``agent.auxiliary_client`` (``call_llm``), ``hermes_cli`` and
``hermes_cli.config`` (``get_hermes_home``). :func:`install` puts a finder on
``sys.meta_path`` (never anything on disk) the first time a Hermes plugin is
loaded. It serves a stand-in only for a name no other finder can import: when
Hermes Agent is installed its own modules serve, and an application that has
a package of its own named ``agent`` keeps it (only the submodules Hermes
plugins import are served beside it). A process that loads no Hermes plugin
never sees the finder.

``call_llm`` answers with the auxiliary LLM of the host the engine runs on:
each wrapped engine call binds it (:func:`bound`) on the calling thread. A
thread the plugin started itself has no binding; it gets the process's one
LLM when every host that could have started it has the same one, and an
error otherwise, never another host's LLM (which would send one user's
conversation to another's provider with their key). The hosts that could
have started a thread are the live ones and those closed or dropped while
the thread was alive: a thread that outlived its host is still that host's.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import importlib.metadata
import importlib.util
import logging
import sys
import threading
import weakref
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from types import ModuleType, SimpleNamespace
from typing import Any

from hermes_core.config._home import hermes_home
from hermes_core.llm import LLM, AuxiliaryLLMConfig
from hermes_core.sources.hermes_plugins import _compressor_helpers as helpers
from hermes_core.sources.hermes_plugins._compressor_stand_in import (
    ContextCompressor,
    summary_prefix,
)
from hermes_core.sources.hermes_plugins._estimates import (
    CHARS_PER_TOKEN,
    MINIMUM_CONTEXT_LENGTH,
    estimate_messages_tokens_rough,
    estimate_tokens_rough,
)
from hermes_core.sources.hermes_plugins._hermes_abc import (
    MEMORY_CONTEXT_MAX_CHARS,
    HermesContextEngine,
    automatic_compaction_status_message,
    sanitize_memory_context,
)
from hermes_core.sources.hermes_plugins._hermes_names import HERMES_ONLY
from hermes_core.sources.hermes_plugins._tail_rules import DEFAULT_RELEASE

__all__ = [
    "bind_owner",
    "bound",
    "call_llm",
    "following",
    "get_hermes_home",
    "hermes_installed",
    "install",
    "release_followed",
    "release_owner",
    "stand_in_attributes",
]

#: Attribute set on every module object installed here.
SHIM_MARKER = "__hermes_context_shim__"

_llm: ContextVar[LLM | None] = ContextVar("hermes_context_shim_llm", default=None)
#: The Hermes release whose rules the stand-ins follow for the plugin being loaded.
_release: ContextVar[str] = ContextVar("hermes_context_shim_release", default=DEFAULT_RELEASE)
_home: ContextVar[Path | None] = ContextVar("hermes_context_shim_home", default=None)
_bound: ContextVar[bool] = ContextVar("hermes_context_shim_bound", default=False)
#: The LLM and home of every live engine that runs a Hermes plugin, for threads with none bound.
_owners: weakref.WeakKeyDictionary[object, tuple[LLM | None, Path | None]] = (
    weakref.WeakKeyDictionary()
)
#: Per owner, what records its departure (closed or garbage-collected, whichever is first).
_departures: weakref.WeakKeyDictionary[object, weakref.finalize[Any, Any]] = (
    weakref.WeakKeyDictionary()
)
#: Per thread alive when owners departed: their distinct LLMs and homes (two of each at
#: most: two already make the thread's owner unknowable), dropped with the thread.
_outlived: weakref.WeakKeyDictionary[threading.Thread, tuple[list[Any], list[Any]]] = (
    weakref.WeakKeyDictionary()
)
#: Reentrant: a departure recorded by the garbage collector may run inside a locked block.
_owners_lock = threading.RLock()
_install_lock = threading.Lock()


def hermes_installed() -> bool:
    """Whether the real Hermes Agent distribution is installed in this environment."""
    try:
        importlib.metadata.distribution("hermes-agent")
    except importlib.metadata.PackageNotFoundError:
        return False
    return True


def bind_owner(owner: object, llm: LLM | None, home: Path | None) -> None:
    """Record that ``owner`` (an engine running a Hermes plugin) calls with ``llm`` and
    ``home``, until :func:`release_owner` or until ``owner`` is garbage-collected. The
    threads alive at that moment keep counting it as their possible owner."""
    with _owners_lock:
        _owners[owner] = (llm, home)
        departure = weakref.finalize(owner, _departed, llm, home)
        departure.atexit = False
        _departures[owner] = departure


def release_owner(owner: object) -> None:
    """``owner`` is closed: its LLM and home no longer count for threads started later."""
    with _owners_lock:
        _owners.pop(owner, None)
        departure = _departures.pop(owner, None)
    if departure is not None:
        departure()


def _same(index: int, one: Any, other: Any) -> bool:
    """LLMs are the same object; homes (index 1) the same path."""
    return one is other or (index == 1 and one == other)


def _departed(llm: LLM | None, home: Path | None) -> None:
    """An owner left: every thread alive now may be one it started."""
    with _owners_lock:
        for thread in threading.enumerate():
            seen = _outlived.setdefault(thread, ([], []))
            for index, value in enumerate((llm, home)):
                values = seen[index]
                if len(values) < 2 and not any(_same(index, value, v) for v in values):
                    values.append(value)


def _sole(index: int) -> tuple[bool, Any]:
    """(True, value) when every owner that could have started this thread (the live ones,
    and those that left while it was alive) has the same value at ``index`` (by identity,
    or equality for homes), else (False, None)."""
    with _owners_lock:
        values = [binding[index] for binding in _owners.values()]
        outlived = _outlived.get(threading.current_thread())
        if outlived is not None:
            values += outlived[index]
    if not values:
        return True, None
    first = values[0]
    if all(_same(index, value, first) for value in values):
        return True, first
    return False, None


@contextmanager
def bound(llm: LLM | None, home: Path | None) -> Iterator[None]:
    """Within the block (on this thread), ``call_llm`` uses ``llm`` and ``get_hermes_home``
    returns ``home``."""
    llm_token = _llm.set(llm)
    home_token = _home.set(home)
    bound_token = _bound.set(True)
    try:
        yield
    finally:
        _llm.reset(llm_token)
        _home.reset(home_token)
        _bound.reset(bound_token)


def get_hermes_home() -> Path:
    """The ``$HERMES_HOME`` of the host the plugin runs on; on a thread of the plugin's own,
    the one home of every live host, else the process's ``$HERMES_HOME`` (default
    ``~/.hermes``)."""
    home = _home.get() if _bound.get() else _sole(1)[1]
    if home is not None:
        return Path(home)
    return hermes_home()


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
        from hermes_core.llm._client import ChatClient  # httpx loads on first use only

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
    if _bound.get():
        llm = _llm.get()
    else:
        sole, llm = _sole(0)
        if not sole:
            raise RuntimeError(
                "call_llm was called on a thread hermes-context's host did not start, while "
                "hosts with different auxiliary LLMs run in this process: whose conversation "
                "it is cannot be told, so it is not sent anywhere; call call_llm from the "
                "engine's own methods (the host's thread)"
            )
    if llm is None:
        raise RuntimeError(
            f"no auxiliary LLM for task {task or 'compression'!r}: set "
            "auxiliary.compression.base_url and model in config.yaml"
        )
    answer = llm.complete(messages, max_tokens=max_tokens, temperature=temperature)
    usage = getattr(answer, "usage", None) or {}
    return _response(answer.text, usage, str(getattr(answer, "model", "") or ""))


@contextmanager
def following(release: str | None) -> Iterator[None]:
    """Within: the stand-ins made follow the rules of Hermes ``release`` (the one the
    plugin being loaded declares; None: :data:`DEFAULT_RELEASE`)."""
    token = _release.set(release or DEFAULT_RELEASE)
    try:
        yield
    finally:
        _release.reset(token)


def release_followed() -> str:
    """The Hermes release whose rules a stand-in made now follows."""
    return _release.get()


def current_llm() -> LLM | None:
    """The auxiliary LLM of the host the calling thread runs for (see :func:`call_llm`), or
    None when it has none or cannot be told: what the compressor stand-in summarises with."""
    if _bound.get():
        return _llm.get()
    sole, llm = _sole(0)
    return llm if sole else None


#: The stand-ins by module name: (is a package, attributes).
_STAND_INS: dict[str, tuple[bool, dict[str, Any]]] = {
    "agent": (True, {}),
    "agent.context_engine": (
        False,
        {
            "ContextEngine": HermesContextEngine,
            "MEMORY_CONTEXT_MAX_CHARS": MEMORY_CONTEXT_MAX_CHARS,
            "sanitize_memory_context": sanitize_memory_context,
            "automatic_compaction_status_message": automatic_compaction_status_message,
            "redact_sensitive_text": helpers.redact_sensitive_text,
            "elide_middle": helpers.elide_middle,
        },
    ),
    "agent.context_compressor": (
        False,
        {
            "ContextCompressor": ContextCompressor,
            # what Hermes' module imports and plugins import from it in turn
            "ContextEngine": HermesContextEngine,
            "call_llm": call_llm,
            "sanitize_memory_context": sanitize_memory_context,
            "estimate_tokens_rough": estimate_tokens_rough,
            "estimate_messages_tokens_rough": estimate_messages_tokens_rough,
            "MINIMUM_CONTEXT_LENGTH": MINIMUM_CONTEXT_LENGTH,
            "CHARS_PER_TOKEN": CHARS_PER_TOKEN,
            "LEGACY_SUMMARY_PREFIX": "[CONTEXT SUMMARY]:",
            "COMPRESSED_SUMMARY_METADATA_KEY": helpers.COMPRESSED_SUMMARY_METADATA_KEY,
            "COMPRESSED_SUMMARY_HAS_USER_TURN_KEY": "_compressed_summary_has_user_turn",
            "MICRO_COMPACT_MARKER_KEY": "_micro_compact_marker",
            "MODEL_ONLY_DISPLAY_METADATA_KEY": "model_only",
            "PROACTIVE_PRUNE_REARM_MODEL_CONFIG_KEY": "_proactive_prune_rearm_tokens",
            "SUMMARY_CARRIER_DURABLE_DISPLAY_METADATA_KEYS": ("reactions",),
            "SKILL_PRUNED_MARKER_PREFIX": "[SKILL_PRUNED:",
            "HISTORICAL_TASK_HEADING": "## Historical Task Snapshot",
            "HISTORICAL_IN_PROGRESS_HEADING": "## Historical In-Progress State",
            "HISTORICAL_PENDING_ASKS_HEADING": "## Historical Pending User Asks",
            "HISTORICAL_REMAINING_WORK_HEADING": "## Historical Remaining Work",
            "LEAN_TAIL_FLOOR_TOKENS": 10_000,
            "LEAN_TAIL_CAP_TOKENS": 25_000,
            "TAIL_MAX_CONTEXT_FRACTION": 0.20,
            "logger": logging.getLogger("agent.context_compressor"),
            "redact_sensitive_text": helpers.redact_sensitive_text,
            "elide": helpers.elide,
            "elide_middle": helpers.elide_middle,
            "ELISION_MARKER_MAX_LEN": helpers.ELISION_MARKER_MAX_LEN,
            "is_compaction_summary_message": helpers.is_compaction_summary_message,
            "resolve_model_threshold": helpers.resolve_model_threshold,
            "pin_summary_route": helpers.pin_summary_route,
            "take_pinned_summary_route": helpers.take_pinned_summary_route,
            "take_deterministic_summary_pin": helpers.take_deterministic_summary_pin,
            "DETERMINISTIC_SUMMARY_ROUTE": helpers.DETERMINISTIC_SUMMARY_ROUTE,
        },
    ),
    "agent.auxiliary_client": (False, {"call_llm": call_llm}),
    "hermes_cli": (True, {}),
    "hermes_cli.config": (False, {"get_hermes_home": get_hermes_home}),
}


def stand_in_attributes(module: str) -> dict[str, Any]:
    """What the stand-in for ``module`` holds (names served when asked for excepted)."""
    return dict(_STAND_INS[module][1])


class _StandIns(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Serves a stand-in for a Hermes module name that nothing else on the path provides
    (it is the last finder on ``sys.meta_path``)."""

    def __init__(self) -> None:
        self._made: dict[str, ModuleType] = {}

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        # last on sys.meta_path: asked only about names no other finder could import
        if fullname not in _STAND_INS:
            return None
        package = _STAND_INS[fullname][0]
        return importlib.util.spec_from_loader(fullname, self, is_package=package)

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        module = self._made.get(spec.name)
        if module is None:
            package, attributes = _STAND_INS[spec.name]
            module = ModuleType(
                spec.name, f"hermes-context's stand-in for Hermes Agent's {spec.name}"
            )
            if package:
                module.__path__ = []
            setattr(module, SHIM_MARKER, True)
            for key, value in attributes.items():
                setattr(module, key, value)
            module.__getattr__ = _past_the_stand_in(spec.name)  # type: ignore[method-assign]
            self._made[spec.name] = module
        return module

    def exec_module(self, module: ModuleType) -> None:
        """Nothing to run: the module was made whole."""


#: Names a stand-in serves only when asked for: their value is read at that moment.
_LATER: dict[str, dict[str, Any]] = {"agent.context_compressor": {"SUMMARY_PREFIX": summary_prefix}}


def _past_the_stand_in(module: str) -> Any:
    """The module ``__getattr__`` of a stand-in: a name read when first asked for, or an
    AttributeError (an ImportError to ``from ... import``) saying that only Hermes Agent
    serves it, and why."""

    def missing(name: str) -> Any:
        later = _LATER.get(module, {}).get(name)
        if later is not None:
            return later()
        why = HERMES_ONLY.get(module, {}).get(name)
        reason = f" ({why})" if why else ""
        raise AttributeError(
            f"{module}.{name} is Hermes Agent's own{reason}; hermes-context's stand-in does not "
            "serve it: pip install hermes-agent to run this plugin"
        )

    return missing


_finder = _StandIns()


def install() -> bool:
    """Make the Hermes module names importable; returns whether stand-ins may serve (Hermes
    Agent is not installed). Idempotent."""
    with _install_lock:
        if _finder not in sys.meta_path:
            sys.meta_path.append(_finder)
    return not hermes_installed()

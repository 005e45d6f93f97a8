"""Error types a host, an integrator or an engine author can meet.

Every error says what happened, where (file, key path, distribution or
directory) and what to do about it, so that its ``str()`` is enough to act on.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

__all__ = [
    "ConfigError",
    "ConfigProblem",
    "EngineError",
    "EngineIncompatibleError",
    "EngineLoadError",
    "EngineNeedsHermesError",
    "EngineNotFoundError",
    "EngineValidationError",
    "HermesError",
    "NeedsHermesAgent",
    "UnknownKey",
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


class NeedsHermesAgent(ImportError):
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

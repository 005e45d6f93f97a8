"""The checked configuration, as the registry and the host read it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from hermes_core._errors import ConfigProblem
from hermes_core._names import DEFAULT_ENGINE, is_valid_engine_name
from hermes_core.config._home import hermes_home
from hermes_core.config._schema import SECTIONS, iter_present, rule_for
from hermes_core.config._yaml_source import line_of

__all__ = ["EngineChoice", "HermesConfig"]


@dataclass(frozen=True)
class EngineChoice:
    """Which engine is selected, and where that choice was made (for messages)."""

    name: str
    origin: str
    valid: bool = True
    from_file: bool = False


@dataclass(frozen=True)
class HermesConfig:
    """A loaded, checked configuration. Build it with :func:`~hermes_core.load_config`.

    ``data`` holds every section of the file (engines read their own); keys
    that failed their check are absent, and listed in ``problems``.
    """

    data: Mapping[str, Any] = field(default_factory=dict)
    path: Path | None = None
    home: Path = field(default_factory=lambda: hermes_home({}))  # as ``env`` says: empty
    env: Mapping[str, str] = field(default_factory=dict)
    strict: bool = False
    problems: tuple[ConfigProblem, ...] = ()
    text: str | None = field(default=None, repr=False, compare=False)
    origin: str = "<defaults>"
    #: Set by :meth:`isolated`: keys marked ``state`` in an engine's rules keep their
    #: defaults, so an engine tried with the user's settings keeps its state in ``home``.
    scratch: bool = False
    #: Set by :meth:`isolated`: the user's own home, for what an engine only reads and
    #: the throwaway home lacks (a model's files); None when ``home`` is the user's.
    user_home: Path | None = None

    def section(self, name: str) -> Mapping[str, Any]:
        """The section ``name`` as a mapping (empty when absent)."""
        value = self.data.get(name)
        return value if isinstance(value, Mapping) else {}

    @property
    def model_context_length(self) -> int | None:
        """The model's whole window as Hermes' ``model.context_length`` sets it: a positive
        whole number, else None (absent, or not a window)."""
        length = self.section("model").get("context_length")
        return length if isinstance(length, int) and length > 0 else None

    def value(self, path: str) -> Any:
        """One of hermes-context's own keys by dotted path (``compression.hook_timeout_seconds``):
        its checked value, or the default of its rule in ``hermes_core.config.KEYS``."""
        rule = rule_for(path)
        for value in iter_present(self.data, path):
            return value
        return rule.fresh_default()

    def isolated(self, home: Path, *, settings: bool = False) -> HermesConfig:
        """This configuration as a check should see it: ``home`` as ``$HERMES_HOME``, only
        the sections hermes-context itself reads (engines get their defaults), and an
        environment holding only ``HERMES_HOME``, the variable that holds the auxiliary
        LLM's key and ``$HERMES_CONTEXT_ENGINE`` (a selection, not state: the check is of
        the engine the host would run). With ``settings`` (``--use-config``) every
        section is kept, so engines run with the user's settings, except the keys their
        rules mark ``state``: those keep their defaults (``scratch``), under ``home``.

        Commands that check or try engines (``engines --check``, ``doctor``,
        ``replay``) create them with an isolated configuration, so that no engine
        reads or writes the user's own state: a database under ``$HERMES_HOME``,
        one named in the engine's section, or one named by an environment
        variable (``HERMES_LCM_DATABASE_URL``).
        """
        own = {section.split(".")[0] for section in SECTIONS}
        data = {key: value for key, value in self.data.items() if settings or key in own}
        env = {"HERMES_HOME": str(home)}
        key_variable = self.value("auxiliary.compression.api_key_env")
        if isinstance(key_variable, str) and key_variable in self.env:
            env[key_variable] = self.env[key_variable]
        if "HERMES_CONTEXT_ENGINE" in self.env:
            env["HERMES_CONTEXT_ENGINE"] = self.env["HERMES_CONTEXT_ENGINE"]
        user_home = self.user_home or self.home
        return replace(self, data=data, home=home, env=env, scratch=True, user_home=user_home)

    @property
    def label(self) -> str:
        """The config file path, ``<mapping>`` for an in-memory configuration, or ``<defaults>``."""
        return str(self.path) if self.path is not None else self.origin

    def locate(self, key: str) -> str:
        """Where ``key`` is set, for messages: ``path:line (key 'a.b')``."""
        line = line_of(self.text, key) if self.text is not None else None
        where = f"{self.label}:{line}" if line is not None else self.label
        return f"{where} (key '{key}')"

    @property
    def engine(self) -> EngineChoice:
        """The selection: ``$HERMES_CONTEXT_ENGINE``, else ``context.engine``, else the default."""
        from_env = self.env.get("HERMES_CONTEXT_ENGINE", "").strip()
        if from_env:
            return EngineChoice(
                from_env,
                "environment variable HERMES_CONTEXT_ENGINE",
                is_valid_engine_name(from_env),
            )
        name = self.section("context").get("engine")
        if isinstance(name, str):
            return EngineChoice(name, f"{self.label} (key 'context.engine')", from_file=True)
        return EngineChoice(DEFAULT_ENGINE, "the default")

    @property
    def plugin_dirs(self) -> tuple[Path, ...]:
        """``plugins.dirs`` (relative to the config file), then ``$HERMES_HOME/plugins``."""
        base = self.path.parent if self.path is not None else Path.cwd()
        dirs = [base / Path(d).expanduser() for d in self.value("plugins.dirs")]
        dirs.append(self.home / "plugins")
        unique: dict[Path, None] = {}
        for directory in dirs:
            unique.setdefault(directory, None)
        return tuple(unique)

    @property
    def enabled_plugins(self) -> tuple[str, ...]:
        """``plugins.enabled``: the general plugins to load, in order."""
        return tuple(self.value("plugins.enabled"))

    @property
    def model_thresholds(self) -> dict[str, float]:
        """``compression.model_thresholds``, the per-model threshold overrides."""
        return dict(self.value("compression.model_thresholds"))

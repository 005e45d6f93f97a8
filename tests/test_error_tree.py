"""Every error hermes-context and lcm raise sits in one tree, defined in one module."""

from __future__ import annotations

import importlib
import pkgutil

import hermes_engine_lcm
import pytest
from hermes_engine_lcm import errors as lcm_errors
from hermes_engine_lcm.errors import LCMError

import hermes_core
from hermes_core import _errors as errors
from hermes_core._errors import HermesError

OPTIONAL = ("hermes_core.integrations.langchain", "hermes_core.integrations.openai_agents")


def _exceptions(package: object) -> dict[str, type[BaseException]]:
    """Every public exception class defined anywhere under ``package``, by qualified name."""
    found: dict[str, type[BaseException]] = {}
    for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):  # type: ignore[attr-defined]
        if info.name.endswith("__main__"):  # runs the CLI when imported
            continue
        try:
            module = importlib.import_module(info.name)
        except ImportError:  # an integration whose extra is not installed
            assert info.name.startswith(OPTIONAL), info.name
            continue
        for value in vars(module).values():
            if (
                isinstance(value, type)
                and issubclass(value, BaseException)
                and value.__module__.startswith(package.__name__)  # type: ignore[attr-defined]
                and not value.__name__.startswith("_")
                and not issubclass(value, KeyboardInterrupt)  # a signal, not an error
            ):
                found[f"{value.__module__}.{value.__qualname__}"] = value
    return found


@pytest.mark.parametrize(
    ("package", "module", "root"),
    [(hermes_core, errors, HermesError), (hermes_engine_lcm, lcm_errors, LCMError)],
    ids=["hermes_core", "hermes_engine_lcm"],
)
def test_every_public_exception_is_defined_in_the_errors_module_under_one_root(
    package: object, module: object, root: type[Exception]
) -> None:
    found = _exceptions(package)
    assert found  # the walk reached the package's modules
    elsewhere = sorted(name for name, cls in found.items() if cls.__module__ != module.__name__)  # type: ignore[attr-defined]
    assert not elsewhere, f"defined outside {module.__name__}: {elsewhere}"  # type: ignore[attr-defined]
    outside = sorted(name for name, cls in found.items() if not issubclass(cls, root))
    assert not outside, f"not under {root.__name__}: {outside}"


@pytest.mark.parametrize("module", [errors, lcm_errors], ids=["hermes_core", "hermes_engine_lcm"])
def test_the_errors_module_draws_every_exception_it_defines_in_its_tree(module: object) -> None:
    doc = module.__doc__ or ""
    names = [n for n in module.__all__ if isinstance(getattr(module, n), type)]  # type: ignore[attr-defined]
    exceptions = [n for n in names if issubclass(getattr(module, n), BaseException)]
    assert len(exceptions) >= 10
    missing = [n for n in exceptions if f"── {n}" not in doc and not doc.lstrip().startswith(n)]
    roots = [n for n in exceptions if n in ("HermesError", "LCMError")]
    assert [n for n in missing if n not in roots] == []


@pytest.mark.parametrize(
    ("old", "name", "builtin"),
    [
        ("hermes_core.config._yaml_source", "YamlSyntaxError", ValueError),
        ("hermes_core.config._editing", "ConfigEditError", ValueError),
        ("hermes_core.config._writing", "ConfigChangedError", RuntimeError),
        ("hermes_core._containment", "PluginTimeout", TimeoutError),
        ("hermes_core.hermes_agent.sessions", "SessionStoreError", Exception),
        ("hermes_core.cli.replay._chart", "PlotUnavailableError", RuntimeError),
        ("hermes_core.testing._rules", "ContractViolation", AssertionError),
        ("hermes_core.integrations._extras", "MissingExtraError", ImportError),
        ("hermes_core.llm", "LLMQuotaError", Exception),
        ("hermes_engine_lcm.store.sqlite.database", "StorePathError", ValueError),
        ("hermes_engine_lcm.store.open", "MissingDriverError", RuntimeError),
        ("hermes_engine_lcm.tools", "ToolError", Exception),
        ("hermes_engine_lcm.relevance.native", "NativeBusy", RuntimeError),
        ("hermes_engine_lcm.testing", "PostgresUnavailable", RuntimeError),
    ],
)
def test_an_error_keeps_its_old_import_path_and_its_builtin_base(
    old: str, name: str, builtin: type[Exception]
) -> None:
    cls = getattr(importlib.import_module(old), name)
    assert issubclass(cls, builtin)
    root = LCMError if old.startswith("hermes_engine_lcm") else HermesError
    assert issubclass(cls, root)

"""The host is a thin facade over private modules: every hook has its host method, and
no module of the host holds more than one page of ideas."""

from __future__ import annotations

from pathlib import Path

import pytest

import hermes_core.host
from hermes_core import HOOKS, ContextHost

HOST = Path(hermes_core.host.__file__).parent
MODULES = sorted(HOST.glob("*.py"))


@pytest.mark.parametrize("module", MODULES, ids=lambda p: p.name)
def test_no_host_module_is_over_400_lines(module: Path) -> None:
    lines = len(module.read_text(encoding="utf-8").splitlines())
    assert lines <= 400, f"{module.name}: {lines} lines"


def test_every_host_module_but_the_package_is_private() -> None:
    public = [p.name for p in MODULES if not p.name.startswith("_")]
    assert public == []
    assert len(MODULES) > 10  # the glob found the package


@pytest.mark.parametrize("hook", HOOKS.values(), ids=lambda h: h.name)
def test_every_hook_has_its_host_method_written_with_a_contract(hook: object) -> None:
    method = getattr(ContextHost, hook.host_method)  # type: ignore[attr-defined]
    assert callable(method) or isinstance(method, property)
    assert (method.__doc__ or "").strip(), hook.host_method  # type: ignore[attr-defined]

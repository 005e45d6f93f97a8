"""The ContextEngine contract as a pytest test class that any engine can inherit.

Subclass :class:`ContextEngineContract` in a module whose name pytest
collects, name the class ``Test...``, and return a fresh engine from
:meth:`~ContextEngineContract.make_engine`::

    from hermes_core.testing import ContextEngineContract

    class TestMyEngine(ContextEngineContract):
        expected_name = "my-engine"

        def make_engine(self):
            return MyEngine()

The class has one test per rule of :data:`hermes_core.testing._rules.RULES`,
named ``test_<rule>``: each states one rule every engine must keep, whatever
its strategy. Importing it does not import pytest.
"""

from __future__ import annotations

from collections.abc import Callable

from hermes_core._engine import ContextEngine
from hermes_core.testing._rules import RULES, ContractRule, ContractSubject

__all__ = ["ContextEngineContract"]


class ContextEngineContract:
    """Rules every context engine keeps. Override :meth:`make_engine`."""

    #: The name the engine must report; None skips that check.
    expected_name: str | None = None
    #: The context length the contract configures engines with.
    context_length: int = 100_000

    def make_engine(self) -> ContextEngine:
        """Return a new engine instance; each call must return a separate object."""
        raise NotImplementedError("override make_engine() to return your engine")

    def contract_subject(self) -> ContractSubject:
        """What the rules check: this class's engine factory and expectations."""
        return ContractSubject(self.make_engine, self.expected_name, self.context_length)


def _test_for(rule: ContractRule) -> Callable[[ContextEngineContract], None]:
    def test(self: ContextEngineContract) -> None:
        rule.check(self.contract_subject())

    test.__name__ = test.__qualname__ = f"test_{rule.name}"
    test.__doc__ = f"Every engine keeps this rule: {rule.sentence}."
    return test


for _rule in RULES:
    setattr(ContextEngineContract, f"test_{_rule.name}", _test_for(_rule))

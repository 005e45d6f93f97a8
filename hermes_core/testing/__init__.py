"""Testing tools for engine authors: the contract kit and throwaway distributions.

Importing this package imports pytest.
"""

from hermes_core.testing.contract import ContextEngineContract, sample_conversation
from hermes_core.testing.distributions import write_distribution
from hermes_core.testing.engine_source import engine_module_source
from hermes_core.testing.hosts import host_for
from hermes_core.testing.site import TemporarySite

__all__ = [
    "ContextEngineContract",
    "TemporarySite",
    "engine_module_source",
    "host_for",
    "sample_conversation",
    "write_distribution",
]

"""Testing tools for engine authors: the contract kit and throwaway distributions.

Importing this package imports pytest.
"""

from hermes_core.testing.contract import ContextEngineContract, sample_conversation
from hermes_core.testing.distributions import write_distribution
from hermes_core.testing.site import TemporarySite

__all__ = ["ContextEngineContract", "TemporarySite", "sample_conversation", "write_distribution"]

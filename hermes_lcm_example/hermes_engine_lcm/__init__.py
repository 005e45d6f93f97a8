"""hermes-engine-lcm: Lossless Context Management for hermes-context."""

from hermes_engine_lcm.engine import LCMEngine

__all__ = ["LCMEngine"]

"""hermes-engine-lcm: Lossless Context Management for hermes-core."""

from hermes_engine_lcm.engine import LCMEngine

__all__ = ["LCMEngine"]

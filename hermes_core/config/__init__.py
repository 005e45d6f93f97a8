"""Configuration: where ``config.yaml`` is found, how it is checked, what it selects."""

from hermes_core.config.loader import hermes_home, load_config
from hermes_core.config.model import EngineChoice, HermesConfig
from hermes_core.config.schema import KEYS, KeyRule

__all__ = ["KEYS", "EngineChoice", "HermesConfig", "KeyRule", "hermes_home", "load_config"]

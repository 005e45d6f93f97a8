"""Configuration: where ``config.yaml`` is found, how it is checked, what it selects."""

from hermes_core.config._checks import is_bool, is_fraction, is_number, seconds, whole_number
from hermes_core.config._home import hermes_home
from hermes_core.config._loader import load_config
from hermes_core.config._model import EngineChoice, HermesConfig
from hermes_core.config._rules import KeyRule, defaults_of
from hermes_core.config._schema import KEYS
from hermes_core.config._sections import check_section, read_section, report_problems

__all__ = [
    "KEYS",
    "EngineChoice",
    "HermesConfig",
    "KeyRule",
    "check_section",
    "defaults_of",
    "hermes_home",
    "is_bool",
    "is_fraction",
    "is_number",
    "load_config",
    "read_section",
    "report_problems",
    "seconds",
    "whole_number",
]

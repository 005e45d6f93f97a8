"""Configuration: where ``config.yaml`` is found, how it is checked, what it selects."""

from hermes_core.config.checks import is_bool, is_fraction, is_number, whole_number
from hermes_core.config.loader import hermes_home, load_config
from hermes_core.config.model import EngineChoice, HermesConfig
from hermes_core.config.schema import KEYS, KeyRule
from hermes_core.config.sections import Rule, check_section, read_section, report_problems

__all__ = [
    "KEYS",
    "EngineChoice",
    "HermesConfig",
    "KeyRule",
    "Rule",
    "check_section",
    "hermes_home",
    "is_bool",
    "is_fraction",
    "is_number",
    "load_config",
    "read_section",
    "report_problems",
    "whole_number",
]

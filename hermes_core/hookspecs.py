"""Deprecated: ``hermes_core.hookspecs`` moved into :mod:`hermes_core.hooks`; import from there
(or from :mod:`hermes_core`). This alias goes in the next minor release."""

from __future__ import annotations

import warnings

from hermes_core.hooks import _specs
from hermes_core.hooks._specs import *  # noqa: F403

__all__ = list(_specs.__all__)

warnings.warn(
    "hermes_core.hookspecs is deprecated: import from hermes_core.hooks",
    DeprecationWarning,
    stacklevel=2,
)

"""Deprecated: ``hermes_core.signatures`` moved into :mod:`hermes_core.hooks`; import from there
(or from :mod:`hermes_core`). This alias goes in the next minor release."""

from __future__ import annotations

import warnings

from hermes_core.hooks import _signatures
from hermes_core.hooks._signatures import *  # noqa: F403

__all__ = list(_signatures.__all__)

warnings.warn(
    "hermes_core.signatures is deprecated: import from hermes_core.hooks",
    DeprecationWarning,
    stacklevel=2,
)

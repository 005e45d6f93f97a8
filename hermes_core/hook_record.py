"""Deprecated: ``hermes_core.hook_record`` moved into :mod:`hermes_core.hooks`; import from there
(or from :mod:`hermes_core`). This alias goes in the next minor release."""

from __future__ import annotations

import warnings

from hermes_core.hooks import _record
from hermes_core.hooks._record import *  # noqa: F403

__all__ = list(_record.__all__)

warnings.warn(
    "hermes_core.hook_record is deprecated: import from hermes_core.hooks",
    DeprecationWarning,
    stacklevel=2,
)

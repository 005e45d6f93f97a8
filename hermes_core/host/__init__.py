"""The host side: the facade agent integrators call every turn."""

from hermes_core.host._host import ContextHost

__all__ = ["ContextHost"]

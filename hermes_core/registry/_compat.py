"""Version gating: does an engine accept the running hermes-context? Decided before import."""

from __future__ import annotations

from collections.abc import Iterable

from packaging.requirements import InvalidRequirement, Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

from hermes_core._version import __version__

__all__ = [
    "HERMES_DISTRIBUTION",
    "requires_dist_conflict",
    "running_version",
]

#: The canonical distribution name of hermes-context.
HERMES_DISTRIBUTION = "hermes-context"


def running_version() -> Version:
    """The version of the running hermes-context."""
    return Version(__version__)


def requires_dist_conflict(requires: Iterable[str] | None) -> str | None:
    """Why the distribution's ``Requires-Dist`` rules out this hermes-context, or None when it fits.

    Only unconditional requirements (and those whose marker holds with no
    extra) on ``hermes-context`` count; unparsable lines are not ours to judge.
    """
    version = running_version()
    for line in requires or ():
        try:
            requirement = Requirement(line)
        except InvalidRequirement:
            continue
        if canonicalize_name(requirement.name) != HERMES_DISTRIBUTION:
            continue
        if requirement.marker is not None and not requirement.marker.evaluate({"extra": ""}):
            continue
        if not requirement.specifier.contains(version, prereleases=True):
            return (
                f"requires hermes-context{requirement.specifier}, running hermes-context {version}"
            )
    return None

"""Session ids as the store keeps them: any string a host sends, in a form every backend holds.

A host may name a session with any string: empty, thousands of characters
long, holding NUL or a lone surrogate. PostgreSQL's text cannot hold NUL, its
indexes refuse very long keys, and neither backend stores a lone surrogate as
UTF-8. Such an id is kept as a digest of itself instead; every other id is
kept as it is, so a store stays readable by hand.
"""

from __future__ import annotations

import hashlib

__all__ = ["MAX_PLAIN_LENGTH", "UNNAMED_SESSION", "session_key"]

#: The longest id kept as it is (well under every index's key limit, in UTF-8).
MAX_PLAIN_LENGTH = 200
#: What a digested id starts with; an id that starts so itself is digested, so none collide.
_DIGESTED = "~sha256:"
#: The key of the session an engine serves before any ``on_session_start``: a digest's
#: prefix followed by no digest, which :func:`session_key` never returns for any id.
UNNAMED_SESSION = _DIGESTED + "(unnamed)"


def session_key(session_id: str) -> str:
    """The key under which the store keeps ``session_id``; distinct ids get distinct keys."""
    if (
        len(session_id) <= MAX_PLAIN_LENGTH
        and "\x00" not in session_id
        and not session_id.startswith(_DIGESTED)
        and session_id.isprintable()
    ):
        try:
            session_id.encode("utf-8")
        except UnicodeEncodeError:
            pass
        else:
            return session_id
    digest = hashlib.sha256(session_id.encode("utf-8", "surrogatepass")).hexdigest()
    return _DIGESTED + digest

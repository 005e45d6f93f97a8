"""Keeping the stored fingerprints in the scheme ingest compares them with.

A store records which scheme its ``messages.fp`` column follows (table
``lcm_meta``, key ``fingerprints``). A store written under an earlier scheme
(digests of the whole message, host bookkeeping keys included) has every
fingerprint computed again from the stored bodies when it is opened, and each
session's remembered list forgotten, so that the next list a host hands is
aligned with the stored end afresh: nothing is stored twice across the change.
"""

from __future__ import annotations

import json

from hermes_core import get_logger
from hermes_engine_lcm.store.messages import fingerprint
from hermes_engine_lcm.store.protocol import Connection

__all__ = ["SCHEME", "ensure_scheme"]

logger = get_logger("hermes_core.engines.lcm")

#: The scheme of :func:`~hermes_engine_lcm.store.messages.fingerprint`.
SCHEME = "provider-view-1"
_BATCH = 1_000


def ensure_scheme(db: Connection) -> int:
    """Bring the store's fingerprints to :data:`SCHEME`, inside the caller's transaction
    (which holds the store's migration lock); returns how many were recomputed."""
    db.execute("CREATE TABLE IF NOT EXISTS lcm_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
    row = db.execute("SELECT value FROM lcm_meta WHERE key = 'fingerprints'").fetchone()
    if row is not None and row[0] == SCHEME:
        return 0
    changed = 0
    last = -1
    while True:
        rows = db.execute(
            "SELECT id, body FROM messages WHERE id > ? ORDER BY id LIMIT ?", (last, _BATCH)
        ).fetchall()
        if not rows:
            break
        db.executemany(
            "UPDATE messages SET fp = ? WHERE id = ?",
            [(fingerprint(json.loads(body)), message_id) for message_id, body in rows],
        )
        changed += len(rows)
        last = rows[-1][0]
    if changed:
        # the remembered lists no longer match any list (their fingerprints are gone), so the
        # next list of each session is aligned with its stored end; a count of 0 would
        # instead mean "after a reset: everything handed is new"
        db.execute(
            "UPDATE sessions SET handed_head_fp = NULL, handed_mid_fp = NULL, handed_tail_fp = NULL"
        )
        logger.info("lcm.fingerprints_updated", scheme=SCHEME, messages=changed)
    db.execute(
        "INSERT INTO lcm_meta (key, value) VALUES ('fingerprints', ?)"
        " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
        (SCHEME,),
    )
    return changed

"""A small Hermes Agent home whose ``state.db`` Hermes' own code wrote: Hermes Agent 0.19.0
running our ``lcm`` (``plugins.enabled: [hermes-context]``, ``context.engine: lcm``) for a
conversation of 40 turns against a scripted model on 127.0.0.1, compacting as it went.
``hermes-context sessions --sample`` and ``replay --hermes-sessions 1 --sample`` read it, so
a user can try both without installing Hermes Agent. ``tools/make_sample_store.py`` writes
it again.

It ships gzipped (``state.db.gz``: its turns repeat themselves); :func:`sample_home` unpacks
it into a temporary folder of the process, removed when the process exits.
"""

from __future__ import annotations

import atexit
import gzip
import shutil
import tempfile
from pathlib import Path

__all__ = ["ARCHIVE", "sample_home"]

#: The sample store, gzipped.
ARCHIVE = Path(__file__).resolve().parent / "state.db.gz"
_unpacked: list[Path] = []


def sample_home() -> Path:
    """A Hermes home holding the sample ``state.db`` (unpacked once per process)."""
    if not _unpacked:
        folder = tempfile.TemporaryDirectory(prefix="hermes-context-sample-")
        atexit.register(folder.cleanup)
        home = Path(folder.name)
        with gzip.open(ARCHIVE, "rb") as packed, (home / "state.db").open("wb") as store:
            shutil.copyfileobj(packed, store)
        _unpacked.append(home)
    return _unpacked[0]

"""Every error lcm raises, in one tree.

``except LCMError`` catches all of them; each also keeps the built-in base it had
before it joined the tree, so ``except RuntimeError`` and the like still catch
what they caught::

    LCMError
    ├── StorePathError (ValueError)          lcm.database names a path the store cannot use
    ├── MissingDriverError (RuntimeError)    a PostgreSQL store without psycopg installed
    ├── StoreConnectionError (RuntimeError)  the PostgreSQL server cannot be reached or used
    ├── StoreBusy (RuntimeError)             a session's lock held by another writer too long
    ├── StoreUnavailable (RuntimeError)      the server is down: calls fail at once for now
    ├── TransferError (RuntimeError)         `hermes-engine-lcm migrate` cannot move the store
    ├── ToolError                            a tool call that cannot be answered
    ├── ModelError (RuntimeError)            an embedding model that cannot be loaded here
    ├── NativeBusy (RuntimeError)            the model's thread gave no answer in time
    ├── ProcessExiting (RuntimeError)        the process is exiting: nothing more is encoded
    └── PostgresUnavailable (RuntimeError)   no PostgreSQL binaries for a test server

The modules that raise them re-export them under the names they always had.
"""

from __future__ import annotations

__all__ = [
    "LCMError",
    "MissingDriverError",
    "ModelError",
    "NativeBusy",
    "PostgresUnavailable",
    "ProcessExiting",
    "StoreBusy",
    "StoreConnectionError",
    "StorePathError",
    "StoreUnavailable",
    "ToolError",
    "TransferError",
]


class LCMError(Exception):
    """Base class of every error raised by hermes-engine-lcm."""


# ---------------------------------------------------------------- the store


class StorePathError(LCMError, ValueError):
    """``lcm.database`` names a path the store cannot, or must not, write to."""


class MissingDriverError(LCMError, RuntimeError):
    """A PostgreSQL store is configured but psycopg is not installed."""


class StoreConnectionError(LCMError, RuntimeError):
    """The PostgreSQL server named by ``lcm.database_url`` cannot be reached or used."""


class StoreBusy(LCMError, RuntimeError):
    """A session's lock stayed held by another writer past ``lock_timeout``."""


class StoreUnavailable(LCMError, RuntimeError):
    """The store's server cannot be reached now; calls fail at once until it can."""


class TransferError(LCMError, RuntimeError):
    """The store cannot be moved (the target is not empty, or the copy did not match)."""


# ---------------------------------------------------------------- tools and embeddings


class ToolError(LCMError):
    """A tool call that cannot be answered; its message goes back to the model as JSON."""


class ModelError(LCMError, RuntimeError):
    """A model that cannot be loaded here; the message says which file and what to do."""


class NativeBusy(LCMError, RuntimeError):
    """An urgent job got no answer in ``URGENT_WAIT_SECONDS``: it was dropped."""


class ProcessExiting(LCMError, RuntimeError):
    """The process is exiting: the job was not run."""


# ---------------------------------------------------------------- testing


class PostgresUnavailable(LCMError, RuntimeError):
    """No PostgreSQL binaries here (install Debian's ``postgresql`` package)."""

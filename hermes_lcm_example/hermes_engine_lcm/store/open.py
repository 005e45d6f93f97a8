"""Opening the store named by the settings: a PostgreSQL server, or the SQLite file."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from hermes_core import get_logger
from hermes_engine_lcm.errors import MissingDriverError
from hermes_engine_lcm.settings import LCMSettings
from hermes_engine_lcm.store.protocol import StoreDatabase
from hermes_engine_lcm.store.sqlite.database import Database

__all__ = ["MissingDriverError", "open_store"]

logger = get_logger("hermes_core.engines.lcm")


def open_store(
    settings: LCMSettings, hermes_home: Path, environ: Mapping[str, str]
) -> StoreDatabase:
    """The store: on the server of ``lcm.database_url`` (or of the variable named by
    ``lcm.database_url_env`` in ``environ``, the host's environment), else in the SQLite
    file of ``lcm.database`` (default: under ``hermes_home``)."""
    url = settings.server_url(environ)
    if url is None:
        return Database(settings.database_path(hermes_home))
    if not url.startswith(("postgresql://", "postgres://")):
        raise ValueError(
            f"${settings.database_url_env} holds no postgresql:// URL; set it to one "
            "(postgresql://user@host:5432/dbname) or unset it to use the SQLite file"
        )
    try:
        from hermes_engine_lcm.store.postgres.database import (
            PostgresDatabase,
            has_password,
            redact,
        )
    except ImportError:
        raise MissingDriverError(
            "lcm: a PostgreSQL store is configured but psycopg is not installed: "
            "pip install 'hermes-engine-lcm[postgres]'"
        ) from None
    if settings.database_url and has_password(settings.database_url):
        logger.warning(
            "lcm.password_in_config",
            database=redact(url),
            hint=f"move the URL to the environment variable {settings.database_url_env} and "
            "remove lcm.database_url from config.yaml",
        )
    return PostgresDatabase(
        url, pool_size=settings.pool_size, lock_timeout=settings.lock_timeout_seconds
    )

"""What is shown of a PostgreSQL URL, and when it counts as holding a password."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from hermes_engine_lcm.store.postgres.database import has_password, redact


@pytest.mark.parametrize(
    ("url", "shown", "password"),
    [
        ("postgresql://lcm:s3cret-pw@db:5432/lcm", "postgresql://lcm@db:5432/lcm", True),
        ("postgresql://db.internal:5432/lcm", "postgresql://db.internal:5432/lcm", False),
        ("postgresql://lcm@db/lcm?password=s3cret-pw", "postgresql://lcm@db/lcm", True),
        ("postgres://lcm@db/lcm?sslmode=require", "postgresql://lcm@db/lcm", False),
    ],
)
def test_a_url_is_shown_without_its_password(url: str, shown: str, password: bool) -> None:
    assert redact(url) == shown
    assert "s3cret" not in redact(url)
    assert has_password(url) is password


def test_without_psycopg_a_postgresql_store_says_which_extra_to_install(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from hermes_engine_lcm import LCMEngine
    from hermes_engine_lcm.store.open import MissingDriverError

    # as when psycopg is not installed: the PostgreSQL store's module cannot be imported
    monkeypatch.setitem(sys.modules, "hermes_engine_lcm.store.postgres.database", None)
    url = "postgresql://lcm:s3cret-pw@db:5432/lcm"
    with pytest.raises(MissingDriverError) as missing:
        LCMEngine({"lcm": {"database_url": url}}, hermes_home=tmp_path)
    assert "hermes-engine-lcm[postgres]" in str(missing.value)
    assert "s3cret" not in str(missing.value)

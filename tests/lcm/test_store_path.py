"""lcm.database: created 0600, never chmodded once it exists, refused when unusable."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest
from hermes_engine_lcm import LCMEngine
from hermes_engine_lcm.store.sqlite.database import StorePathError

from hermes_core import ContextHost


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_a_new_database_is_created_0600_in_a_0700_directory(tmp_path: Path) -> None:
    engine = LCMEngine({"lcm": {"database": str(tmp_path / "new" / "lcm.db")}})
    engine.close()
    assert mode(tmp_path / "new" / "lcm.db") == 0o600
    assert mode(tmp_path / "new") == 0o700


def test_an_existing_database_keeps_the_mode_its_owner_gave_it(tmp_path: Path) -> None:
    path = tmp_path / "shared.db"
    LCMEngine({"lcm": {"database": str(path)}}).close()
    path.chmod(0o640)
    LCMEngine({"lcm": {"database": str(path)}}).close()
    assert mode(path) == 0o640


def test_a_directory_is_refused_and_left_as_it_was(tmp_path: Path) -> None:
    project = tmp_path / "my-project"
    project.mkdir(mode=0o755)
    project.chmod(0o755)
    with pytest.raises(StorePathError, match="is a directory; name a file in it"):
        LCMEngine({"lcm": {"database": str(project)}})
    assert mode(project) == 0o755
    assert list(project.iterdir()) == []


def test_a_read_only_database_is_refused_not_chmodded(tmp_path: Path) -> None:
    path = tmp_path / "lcm.db"
    LCMEngine({"lcm": {"database": str(path)}}).close()
    path.chmod(0o400)
    before = path.read_bytes()
    with pytest.raises(StorePathError, match=r"read-only \(mode 0400\).*chmod u\+w"):
        LCMEngine({"lcm": {"database": str(path)}})
    assert mode(path) == 0o400 and path.read_bytes() == before


def test_the_host_falls_back_with_the_reason_when_the_path_is_unusable(tmp_path: Path) -> None:
    host = ContextHost.from_config(
        {"context": {"engine": "lcm"}, "lcm": {"database": str(tmp_path)}}, env={}
    )
    assert host.engine_name == "compressor"
    assert "is a directory" in str(host.activation.fallback)

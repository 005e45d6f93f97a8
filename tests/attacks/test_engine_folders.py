"""Attacks through engine folders (``<dir>/context_engine/<name>/``): an import or a
``register`` that never returns, a module left half-imported, many hosts loading one folder
at once. Events and barriers decide every outcome, never the clock."""

from __future__ import annotations

import sys
import threading
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from hermes_core import ContextHost
from tests.attacks import rendezvous

#: The folder's engine: a Hermes plugin whose import or register() waits for the test.
FOLDER_ENGINE = """
from agent.context_engine import ContextEngine
from tests.attacks import rendezvous

if {wait_at_import}:
    rendezvous.first_inside.set()
    rendezvous.first_done.wait(120)


class Slow(ContextEngine):
    @property
    def name(self):
        return "slow"

    def update_from_response(self, usage):
        pass

    def should_compress(self, prompt_tokens=None):
        return False

    def compress(self, messages, current_tokens=None, focus_topic=None):
        return messages


def register(ctx):
    if {wait_at_register}:
        rendezvous.first_inside.set()
        rendezvous.first_done.wait(120)
    ctx.register_context_engine(Slow())
"""


@pytest.fixture(autouse=True)
def released() -> Iterator[None]:
    rendezvous.reset()
    yield
    rendezvous.first_done.set()  # whatever still waits goes on, and ends


def _home(tmp_path: Path, *, at_import: bool, at_register: bool, limit: float) -> Path:
    folder = tmp_path / "plugins" / "context_engine" / f"slow_{uuid.uuid4().hex[:8]}"
    folder.mkdir(parents=True)
    source = FOLDER_ENGINE.format(wait_at_import=at_import, wait_at_register=at_register)
    (folder / "__init__.py").write_text(source, encoding="utf-8")
    (tmp_path / "config.yaml").write_text(
        f"context:\n  engine: {folder.name}\n"
        f"plugins:\n  dirs: [{tmp_path / 'plugins'}]\n  register_timeout_seconds: {limit}\n",
        encoding="utf-8",
    )
    return tmp_path


def _host(home: Path) -> ContextHost:
    return ContextHost.from_config(home / "config.yaml", env={"HERMES_HOME": str(home)})


def _built_in_thread(home: Path) -> ContextHost:
    """The host, built on a thread of its own: a build that hangs fails the test, not CI."""
    built: list[ContextHost] = []
    building = threading.Thread(target=lambda: built.append(_host(home)), daemon=True)
    building.start()
    building.join(120)  # a bounded build returns after its 0.5 s limit
    assert built, "from_config never returned"
    return built[0]


@pytest.mark.parametrize("stage", ["import", "register"])
def test_a_folder_that_never_returns_costs_discovery_its_limit_and_falls_back(
    tmp_path: Path, stage: str
) -> None:
    home = _home(tmp_path, at_import=stage == "import", at_register=stage == "register", limit=0.5)
    host = _built_in_thread(home)
    assert rendezvous.first_inside.is_set()  # the folder did start, and is still waiting
    assert host.engine_name == "compressor"
    host.close()


def test_a_folder_whose_import_timed_out_is_never_used_half_imported(tmp_path: Path) -> None:
    home = _home(tmp_path, at_import=True, at_register=False, limit=0.5)
    first = _built_in_thread(home)
    assert first.engine_name == "compressor"
    second = _built_in_thread(home)  # the first import still runs: its module is half made
    assert second.engine_name == "compressor"
    rendezvous.first_done.set()  # the import ends; the next host gets the whole module
    config = home / "config.yaml"  # with a bound no loaded machine reaches for a quick import
    config.write_text(config.read_text("utf-8").replace("seconds: 0.5", "seconds: 60"), "utf-8")
    assert "register_timeout_seconds: 60" in config.read_text("utf-8")
    third = _built_in_thread(home)
    assert third.engine_name.startswith("slow_")
    for host in (first, second, third):
        host.close()


def _waiting_in_import(threads: list[threading.Thread]) -> int:
    """How many of ``threads`` wait inside import_package (for another thread's import)."""
    frames = sys._current_frames()
    count = 0
    for thread in threads:
        frame: Any = frames.get(thread.ident or -1)
        while frame is not None and frame.f_code.co_name != "import_package":
            frame = frame.f_back
        count += frame is not None
    return count


def test_sixteen_hosts_loading_one_slow_folder_at_once_all_get_its_engine(
    tmp_path: Path,
) -> None:
    home = _home(tmp_path, at_import=True, at_register=False, limit=0)
    hosts: list[ContextHost] = []
    start = threading.Barrier(16)

    def build() -> None:
        start.wait(60)
        hosts.append(_host(home))

    threads = [threading.Thread(target=build, daemon=True) for _ in range(16)]
    for thread in threads:
        thread.start()
    assert rendezvous.first_inside.wait(60)  # one thread runs the folder's import
    others = [t for t in threads if t.ident != _importer(threads)]
    for _ in range(1_200):  # until the 15 others wait for it, or went on without it
        if _waiting_in_import(others) + sum(not t.is_alive() for t in others) == 15:
            break
        threading.Event().wait(0.05)
    rendezvous.first_done.set()
    for thread in threads:
        thread.join(120)
    assert len(hosts) == 16
    assert [host.engine_name.startswith("slow_") for host in hosts] == [True] * 16
    for host in hosts:
        host.close()


def _importer(threads: list[threading.Thread]) -> int | None:
    """The thread whose stack runs the folder's module (it waits in its body)."""
    frames = sys._current_frames()
    for thread in threads:
        frame: Any = frames.get(thread.ident or -1)
        while frame is not None:
            if (
                frame.f_code.co_filename.endswith("__init__.py")
                and "slow_" in frame.f_code.co_filename
            ):
                return thread.ident
            frame = frame.f_back
    return None

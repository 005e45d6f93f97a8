"""A compaction replaces the Agents SDK session's items all or nothing: a run cancelled
while the items are replaced never leaves the session without its history."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

from agents import SQLiteSession
from agents.memory import SessionABC

from hermes_core import ContextHost
from hermes_core.integrations.openai_agents import ContextEngineSession

WINDOW = 4_000


def _turn(n: int) -> list[dict[str, Any]]:
    return [
        {"role": "user", "content": f"Question {n}: " + "tell me more about the build " * 20},
        {"role": "assistant", "content": f"Answer {n}: " + "the build log says it passed " * 20},
    ]


async def _until_cancelled_in_replacement(session: ContextEngineSession, turns: int) -> Any:
    """Add turns until one ends cancelled (the store cancels it while replacing); what
    ``add_items`` raised then, or None when no turn was cancelled."""
    for n in range(turns):
        task = asyncio.ensure_future(session.add_items(_turn(n)))  # type: ignore[arg-type]
        session.underlying.run = task  # type: ignore[attr-defined]
        try:
            await task
        except asyncio.CancelledError as exc:
            await session.get_items()  # waits for a replacement the cancel left under way
            return exc
    return None


class _CancelsItsCaller:
    """Cancels the run (the task adding a turn) as soon as a clear is done: a run cancelled
    between the two steps of a replacement."""

    cleared = 0
    run: asyncio.Future[Any] | None = None

    async def clear_session(self) -> None:
        await super().clear_session()  # type: ignore[misc]
        self.cleared += 1
        assert self.run is not None
        self.run.cancel()
        await asyncio.sleep(0)


class _CancellingSQLiteSession(_CancelsItsCaller, SQLiteSession):
    pass


class _MemorySession(SessionABC):
    """A Session of no library: a list in memory."""

    def __init__(self) -> None:
        self.session_id = "memory"
        self.items: list[Any] = []

    async def get_items(self, limit: int | None = None) -> list[Any]:
        return list(self.items[-limit:] if limit else self.items)

    async def add_items(self, items: list[Any]) -> None:
        self.items += items

    async def pop_item(self) -> Any:
        return self.items.pop() if self.items else None

    async def clear_session(self) -> None:
        self.items = []


class _CancellingMemorySession(_CancelsItsCaller, _MemorySession):
    pass


def _session(host: ContextHost, underlying: Any) -> ContextEngineSession:
    return ContextEngineSession("s", host, context_length=WINDOW, underlying=underlying)


def test_the_default_store_is_replaced_in_one_step_a_cancel_cannot_split(
    tmp_path: Path, make_host: Callable[..., ContextHost]
) -> None:
    underlying = _CancellingSQLiteSession("s", db_path=tmp_path / "items.db")
    session = _session(make_host("compressor"), underlying)
    asyncio.run(_until_cancelled_in_replacement(session, 40))
    items: list[Any] = list(asyncio.run(underlying.get_items()))
    assert session.host.status()["passes_compressed"] >= 1
    assert underlying.cleared == 0  # never cleared: replaced in one transaction
    assert 4 <= len(items) < 80
    assert items[-1]["content"].startswith("Answer")


def test_any_other_store_still_holds_the_history_after_a_cancelled_replacement(
    make_host: Callable[..., ContextHost],
) -> None:
    underlying = _CancellingMemorySession()
    session = _session(make_host("compressor"), underlying)
    cancelled = asyncio.run(_until_cancelled_in_replacement(session, 40))
    assert cancelled is not None and underlying.cleared == 1
    assert len(underlying.items) >= 4  # the compacted history, not nothing
    assert underlying.items[-1]["content"].startswith("Answer")

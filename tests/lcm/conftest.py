from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hermes_engine_lcm import LCMEngine


@pytest.fixture
def make_lcm(tmp_path: Path) -> Iterator[Callable[..., LCMEngine]]:
    """Build LCM engines on one database under tmp_path; ``lcm`` settings as keywords."""
    engines: list[LCMEngine] = []

    def make(context_length: int = 20_000, llm: Any = None, **settings: Any) -> LCMEngine:
        config = {"lcm": {"fresh_tail_messages": 8, "leaf_chunk_tokens": 1_500, **settings}}
        engine = LCMEngine(config, hermes_home=tmp_path, llm=llm)
        engine.update_model("model", context_length)
        engines.append(engine)
        return engine

    yield make
    for engine in engines:
        engine.database.close()

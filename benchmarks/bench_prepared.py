"""The agent's wait at a pass, with the summary prepared ahead and without.

The bundled 300-turn coding session is replayed through each engine at a 64,000-token
window, one turn every ``2 s x scale``, with an auxiliary LLM on 127.0.0.1 that takes
``10 s x scale`` to answer each summary (the issue's figures at ``--scale 1``; the
default 0.05 keeps the run under two minutes an engine, and what is measured, the time
a pass takes from the agent, is not scaled). Each engine runs twice, side by side:
preparing ahead (``compression.prepare_at_share`` at its default) and not (``0``).

Targets: with preparation, the 95th percentile of the agent's wait at a pass is at most
0.1 s, and no request is over the window; and it is at most a tenth of the wait without
(so the run measured what it claims: passes that would have waited for the summariser).

    python benchmarks/bench_prepared.py [--scale S] [--write-figures]
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from judging import Target, judge

from hermes_core import ContextHost
from hermes_core._tokens import estimate_tokens
from hermes_core.llm import AuxiliaryLLMConfig, ChatClient
from hermes_core.testing._conversations import coding_session
from hermes_core.testing._openai_server import JSONHandler, serving_on_localhost

WINDOW = 64_000
WAIT_BOUND = 0.1


def _scale() -> float:
    if "--scale" in sys.argv:
        return float(sys.argv[sys.argv.index("--scale") + 1])
    return 0.05


def _slow_summariser(seconds: float) -> type[JSONHandler]:
    class Handler(JSONHandler):
        def do_POST(self) -> None:
            self.read_json()
            threading.Event().wait(seconds)  # the summariser thinking
            self.send_json(
                {"choices": [{"message": {"role": "assistant", "content": "## Summary\nok"}}]}
            )

    return Handler


def replay(
    engine: str, url: str, share: float | None, turn_seconds: float, home: Path
) -> dict[str, Any]:
    """Waits at passes, passes, and the largest request, over the bundled session."""
    llm = ChatClient(AuxiliaryLLMConfig(url, "summariser", timeout_seconds=600), env={})
    config: dict[str, Any] = {"context": {"engine": engine}}
    if share is not None:  # None: the default
        config["compression"] = {"prepare_at_share": share}
    env = {"HERMES_HOME": str(home), "HERMES_LCM_EMBEDDING_MODEL": "none"}
    waits: list[float] = []
    largest = over = 0
    with ContextHost.from_config(config, env=env, llm=llm) as host:
        host.update_model("bench-model", WINDOW)
        host.start_session("bench")
        messages = coding_session()
        history = [messages[0]]
        started = time.monotonic()
        for message in messages[1:]:
            if message["role"] == "assistant" and len(history) > 1:
                request = host.select_context(
                    history,
                    conversation_messages=history[:-1],
                    incoming_message=history[-1],
                    budget_tokens=host.input_budget_tokens,
                )
                size = estimate_tokens(request)
                largest, over = max(largest, size), over + (size > WINDOW)
            history.append(message)
            if message["role"] == "assistant" and not message.get("tool_calls"):
                tokens = estimate_tokens(history)
                host.record_usage({"prompt_tokens": tokens, "completion_tokens": 0})
                if host.should_compress(tokens):
                    before = time.monotonic()
                    history = host.compress(history, current_tokens=tokens)
                    waits.append(time.monotonic() - before)
                host.turn_complete(history, None)
                started += turn_seconds  # the next turn starts on the beat, as a user's would
                threading.Event().wait(max(0.0, started - time.monotonic()))
        status = host.status()
    return {
        "waits": waits,
        "largest": largest,
        "over": over,
        "status": {k: v for k, v in status.items() if "prepar" in k or "not_ready" in k},
    }


def p95(values: list[float]) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def main() -> int:
    scale = _scale()
    targets: list[Target] = []
    figures: dict[str, str] = {}
    with tempfile.TemporaryDirectory(prefix="bench-prepared-") as scratch:
        handler = _slow_summariser(10 * scale)
        with serving_on_localhost(handler) as url:
            for engine in ("compressor", "lcm"):
                runs = {}
                for label, share in (("prepared", None), ("today", 0.0)):
                    home = Path(scratch) / f"{engine}-{label}"
                    runs[label] = replay(engine, url, share, 2 * scale, home)
                on, off = runs["prepared"], runs["today"]
                median = statistics.median(on["waits"] or [0.0])
                print(
                    f"{engine}: {len(on['waits'])} passes prepared ahead, p95 wait "
                    f"{p95(on['waits']):.3f} s (median {median:.3f}), largest request "
                    f"{on['largest']} of {WINDOW}, over the window {on['over']}; without: "
                    f"{len(off['waits'])} passes, p95 wait {p95(off['waits']):.3f} s "
                    f"(summariser {10 * scale:g} s); {on['status']}"
                )
                figures |= {
                    f"{engine}_p95_wait_prepared": f"{p95(on['waits']):.3f} s",
                    f"{engine}_p95_wait_today": f"{p95(off['waits']):.3f} s",
                    f"{engine}_passes": str(len(on["waits"])),
                }
                targets += [
                    Target(f"{engine}: p95 wait at a pass, s", p95(on["waits"]), WAIT_BOUND),
                    Target(f"{engine}: requests over the window", on["over"], 0),
                    Target(
                        f"{engine}: p95 wait prepared / not",
                        p95(on["waits"]) / max(p95(off["waits"]), 1e-9),
                        0.1,
                    ),
                ]
    figures["summariser_seconds"] = f"{10 * scale:g} s"
    return judge(targets, "bench_prepared", figures)


if __name__ == "__main__":
    raise SystemExit(main())

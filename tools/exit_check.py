"""Does every process that loads the embedding model exit promptly once its work is done?

Runs each kind of process ``--runs`` times (default 20): ``hermes-context doctor lcm``,
``pytest --hermes-engine lcm`` (the contract kit), ``hermes-context replay --engine lcm``
with a question, and a script whose host is closed by ``with`` while its embedding worker
has a backlog. Each run's time from the last line of its work to its exit is measured
(the process prints, then exits); a run over ``--bound`` seconds (default 5) or killed at
``--timeout`` is a miss. Exit 1 on any miss. No variable is set for the runs (no
``OPENBLAS_NUM_THREADS``): they run as a user runs them.

    python tools/exit_check.py --runs 20
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

HOST_SCRIPT = textwrap.dedent(
    """
    import sys
    from hermes_core import ContextHost
    from hermes_core.testing import agent_turn, sample_conversation

    history = sample_conversation(2)
    for n in range(150):
        history += agent_turn(n)
    with ContextHost.from_config({"context": {"engine": "lcm"}}) as host:
        host.update_model("m", 8000)
        host.start_session("s")
        host.turn_complete(history)  # a backlog for the embedding worker
        ask = {"role": "user", "content": "what did the test print?"}
        host.select_context(
            [*history, ask], conversation_messages=history, incoming_message=ask,
            budget_tokens=4000,
        )
    print("work done", flush=True)
    """
)

CONTRACT_TEST = "def test_nothing_of_ours():\n    pass\n"


def _commands(scratch: Path) -> dict[str, list[str]]:
    (scratch / "host_script.py").write_text(HOST_SCRIPT, encoding="utf-8")
    (scratch / "test_empty.py").write_text(CONTRACT_TEST, encoding="utf-8")
    python = sys.executable
    return {
        "doctor": [python, "-m", "hermes_core", "doctor", "lcm"],
        "pytest plugin": [python, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                          "--hermes-engine", "lcm", str(scratch / "test_empty.py")],
        "replay --ask": [python, "-m", "hermes_core", "replay", "--engine", "lcm",
                         "--ask", "which file failed the build?"],
        "host closed by with": [python, str(scratch / "host_script.py")],
    }  # fmt: skip


def _run(command: list[str], home: Path, timeout: float) -> tuple[float | None, int | None]:
    """Seconds from the last line printed to the exit (None: killed at ``timeout``), and
    the exit status."""
    env = {**os.environ, "HERMES_HOME": str(home)}
    env.pop("HERMES_CONFIG", None)
    process = subprocess.Popen(
        command, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, cwd=home
    )
    assert process.stdout is not None
    last = time.monotonic()
    deadline = last + timeout
    for _ in iter(process.stdout.readline, b""):
        last = time.monotonic()
        if last > deadline:
            break
    try:
        status = process.wait(max(0.1, deadline - time.monotonic()))
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
        return None, None
    return time.monotonic() - last, status


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--bound", type=float, default=5.0)
    parser.add_argument("--timeout", type=float, default=300.0)
    options = parser.parse_args()
    missed = 0
    with tempfile.TemporaryDirectory(prefix="exit-check-") as folder:
        scratch = Path(folder)
        for name, command in _commands(scratch).items():
            times: list[float] = []
            hung = failed = 0
            for run in range(options.runs):
                home = scratch / f"home-{name.replace(' ', '-')}-{run}"
                home.mkdir()
                seconds, status = _run(command, home, options.timeout)
                if seconds is None:
                    hung += 1
                    continue
                failed += status != 0
                times.append(seconds)
            late = sum(t > options.bound for t in times)
            missed += hung + late + failed
            worst = f"{max(times):.2f} s" if times else "-"
            print(
                f"{name}: {len(times) - late - failed} of {options.runs} exited within "
                f"{options.bound:g} s of their work (worst {worst}; hung {hung}, "
                f"failed {failed})",
                flush=True,
            )
    return 1 if missed else 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Conversations for tests, benchmarks and the replay command: one place builds them.

Small builders make single messages (:func:`user`, :func:`reply`,
:func:`tool_call`, :func:`assistant_calls`, :func:`tool_result`);
:func:`agent_turn` and :func:`sample_conversation` make regular agent
conversations of any length; :func:`coding_session` makes a deterministic,
varied one (parallel tool calls, failing tests, files of many sizes) with one
fact stated early, ``SAMPLE_FACT``, for trying retrieval after
compaction.
"""

from __future__ import annotations

import json
import random
from typing import Any

__all__ = [
    "SAMPLE_FACT",
    "agent_turn",
    "assistant_calls",
    "coding_session",
    "reply",
    "sample_conversation",
    "tool_call",
    "tool_result",
    "user",
]


def user(text: str) -> dict[str, Any]:
    """A user message."""
    return {"role": "user", "content": text}


def reply(text: str) -> dict[str, Any]:
    """An assistant message with text and no tool calls."""
    return {"role": "assistant", "content": text}


def tool_call(call_id: str, name: str = "read_file", **arguments: Any) -> dict[str, Any]:
    """One function tool call, its arguments as JSON text."""
    return {
        "id": call_id,
        "type": "function",
        "function": {"name": name, "arguments": json.dumps(arguments)},
    }


def assistant_calls(*calls: dict[str, Any]) -> dict[str, Any]:
    """An assistant message that makes ``calls`` and says nothing."""
    return {"role": "assistant", "content": None, "tool_calls": list(calls)}


def tool_result(call_id: str, content: str) -> dict[str, Any]:
    """The result of tool call ``call_id``."""
    return {"role": "tool", "tool_call_id": call_id, "content": content}


def agent_turn(n: int, ask: str | None = None, body: int = 600) -> list[dict[str, Any]]:
    """Turn ``n``: an ask (``ask``, or one about ``src/module_<n>.py``), a ``read_file`` call,
    its result of about ``body`` characters, and a reply."""
    path = f"src/module_{n}.py"
    call_id = f"call_{n}"
    return [
        user(ask or f"Turn {n}: fix the bug in {path}"),
        assistant_calls(tool_call(call_id, path=path)),
        tool_result(call_id, f"# {path}\n" + "x = compute()\n" * max(1, body // 14)),
        reply(f"Fixed module {n}."),
    ]


def sample_conversation(
    turns: int = 30, *, facts: dict[int, str] | None = None, body: int = 600
) -> list[dict[str, Any]]:
    """A system prompt, then ``turns`` agent turns (:func:`agent_turn`); turn ``n`` asks
    ``facts[n]`` instead, when given. Always a valid message sequence."""
    messages = [{"role": "system", "content": "You are a coding agent."}]
    for n in range(turns):
        messages += agent_turn(n, (facts or {}).get(n), body)
    return messages


#: A fact stated early in the sample, for trying retrieval after compaction.
SAMPLE_FACT = "For the record: the staging database lives on host kestrel-17, port 6543."

_MODULES = ["auth", "billing", "search", "export", "scheduler", "cache", "api", "cli", "models"]
_ASKS = [
    "The {m} tests fail since this morning, can you look?",
    "Please add type hints to {m}/core.py.",
    "Why is {m} so slow on large inputs?",
    "Refactor {m}/handlers.py into smaller functions.",
    "Add a test for the empty-input case in {m}.",
]


def coding_session(turns: int = 300, seed: int = 7) -> list[dict[str, Any]]:
    """A deterministic transcript: a system prompt, then turns of ask, tool calls, reply."""
    rng = random.Random(seed)
    messages: list[dict[str, Any]] = [
        {"role": "system", "content": "You are a careful coding agent working in a Python repo."}
    ]
    for turn in range(turns):
        module = rng.choice(_MODULES)
        ask = SAMPLE_FACT if turn == 3 else rng.choice(_ASKS).format(m=module)
        messages.append({"role": "user", "content": ask})
        for call in range(rng.randint(1, 3)):
            call_id = f"call_{turn}_{call}"
            tool = rng.choice(["read_file", "run_tests", "grep"])
            path = f"src/{module}/{rng.choice(['core', 'handlers', 'utils'])}.py"
            messages.append(
                {
                    "role": "assistant",
                    "content": None,
                    "tool_calls": [
                        {
                            "id": call_id,
                            "type": "function",
                            "function": {"name": tool, "arguments": json.dumps({"path": path})},
                        }
                    ],
                }
            )
            if tool == "run_tests":
                body = f"FAILED tests/test_{module}.py::test_case_{turn} - AssertionError\n" * 3
            else:
                body = (
                    f"# {path}\n"
                    + "def handle(event):\n    return process(event)\n" * rng.randint(5, 30)
                )
            messages.append({"role": "tool", "tool_call_id": call_id, "content": body})
        messages.append(
            {
                "role": "assistant",
                "content": f"Done with turn {turn}: updated {module} and re-ran its tests.",
            }
        )
    return messages

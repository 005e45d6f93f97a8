"""A worked example: an agent loop that embeds ContextHost, with a stub model and no network.

Run it with ``python examples/agent_loop.py``. The stub model answers every
user message by reading a file through a tool, then replying; its usage is
the prompt's size in characters / 4, so the history grows until the engine
compacts it.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field
from typing import Any

from hermes_core import ContextHost, estimate_tokens, validate_messages

SYSTEM = {"role": "system", "content": "You are a careful coding agent."}
LOCAL_TOOLS = [{"name": "read_file", "parameters": {"type": "object", "properties": {}}}]


@dataclass
class StubModel:
    """Answers like a chat-completions API: a tool call first, then a text reply."""

    calls: int = 0
    requests: list[int] = field(default_factory=list)
    #: The most tokens one request held.
    largest: int = 0

    def complete(
        self, messages: list[dict[str, Any]], tools: list[dict[str, Any]]
    ) -> dict[str, Any]:
        self.calls += 1
        self.requests.append(len(messages))
        prompt_tokens = estimate_tokens(messages)
        self.largest = max(self.largest, prompt_tokens)
        last = messages[-1]
        if last["role"] == "user":
            message = {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": f"call_{self.calls}",
                        "type": "function",
                        "function": {
                            "name": "read_file",
                            "arguments": json.dumps({"n": self.calls}),
                        },
                    }
                ],
            }
        else:
            message = {"role": "assistant", "content": f"Done with step {self.calls}. " * 5}
        completion_tokens = estimate_tokens([message])
        usage = {
            "prompt_tokens": prompt_tokens,
            "completion_tokens": completion_tokens,
            "total_tokens": prompt_tokens + completion_tokens,
        }
        return {"message": message, "usage": usage}


def read_file(arguments: str) -> str:
    """The agent's own tool: returns a long file body."""
    number = json.loads(arguments)["n"]
    return f"# file {number}\n" + "def handler(event):\n    return event\n" * 40


# --8<-- [start:loop]
def run_agent(host: ContextHost, turns: int, context_length: int) -> dict[str, Any]:
    """Drive ``turns`` user turns through the host; returns what happened."""
    model = StubModel()
    host.update_model("stub-model", context_length)  # the model's whole window
    # A request may hold the window less what the reply needs: a provider counts the answer
    # inside the same window, so a request filled to it leaves the model no room to answer.
    budget = host.input_budget_tokens
    host.start_session("example-session")
    messages: list[dict[str, Any]] = [SYSTEM]
    tools = LOCAL_TOOLS + [entry["function"] for entry in host.tool_schemas(["read_file"])]
    engine_tools = {t["name"] for t in tools} - {"read_file"}
    passes = []
    for turn in range(turns):
        incoming = {"role": "user", "content": f"Turn {turn}: please review file {turn}."}
        messages.append(incoming)
        usage = None
        while True:
            request = host.select_context(
                messages,
                conversation_messages=messages[:-1],
                incoming_message=messages[-1],
                budget_tokens=budget,
            )
            response = model.complete(request, tools)
            usage = response["usage"]
            host.record_usage(usage)
            messages.append(response["message"])
            calls = response["message"].get("tool_calls") or []
            for call in calls:
                name = call["function"]["name"]
                if name in engine_tools:
                    result = host.handle_tool_call(name, call["function"]["arguments"], messages)
                else:
                    result = read_file(call["function"]["arguments"])
                messages.append({"role": "tool", "tool_call_id": call["id"], "content": result})
            if host.should_compress(usage["prompt_tokens"]):
                before = len(messages)
                messages = host.compress(messages, current_tokens=usage["prompt_tokens"])
                passes.append((turn, before, len(messages)))
            if not calls:
                break
        host.turn_complete(messages, usage, turn_id=f"turn-{turn}")
    host.end_session("example-session", messages)
    # --8<-- [end:loop]
    return {
        "turns": turns,
        "model_calls": model.calls,
        "passes": passes,
        "final_messages": len(messages),
        "largest_request": model.largest,
        "valid": not validate_messages(messages),
        "status": host.status(),
    }


def main() -> int:
    host = ContextHost.from_config({"context": {"engine": "compressor"}}, env={})
    result = run_agent(host, turns=40, context_length=8_000)
    print(
        f"engine: {host.engine_name}; {result['turns']} turns, {result['model_calls']} model calls"
    )
    for turn, before, after in result["passes"]:
        print(f"  turn {turn:2}: compacted {before} messages to {after}")
    print(f"final history: {result['final_messages']} messages, valid: {result['valid']}")
    return 0 if result["valid"] and result["passes"] else 1


if __name__ == "__main__":
    sys.exit(main())

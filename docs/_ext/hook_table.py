"""The contract page's table of engine hooks, written from their declarations.

A part ``<!-- engine-hooks -->`` (see ``generated.py``) holds one row per hook of
:data:`hermes_core.hooks.HOOKS`: the host method an agent calls, how the
host calls the engine, what the caller gets when the engine fails or is late,
whether (and how) Hermes Agent 0.19 calls it, and since which Hermes release its base
class has it. The page cannot disagree
with the declarations the host and the tests read.

A part ``<!-- host-methods -->`` holds the same records the other way round, for
integrators: each :class:`~hermes_core.ContextHost` method, the engine hook it
calls (marked where the names differ), how, and what the agent gets when the
engine fails.
"""

from __future__ import annotations

HOW = {
    "inline": "inline, unbounded",
    "bounded": "bounded (`hook_timeout_seconds`)",
    "pass": "a pass (`context_timeout_seconds`)",
    "background": "in the background, never waited for",
}


def render() -> str:
    from hermes_core.hooks._specs import HOOKS

    rows = [
        "| hook | `ContextHost` method | how the host calls it | when it fails or is late "
        "| Hermes Agent 0.19 | in Hermes' base class since |",
        "|---|---|---|---|---|---|",
    ]
    for hook in HOOKS.values():
        required = " (required)" if hook.required else ""
        hermes = f"yes: {hook.hermes}" if hook.hermes else "no"
        if hook.hermes is None and hook.hermes_since == "0.19":
            hermes = "no (its base class has it)"
        rows.append(
            f"| `{hook.name}`{required} | `{hook.host_method}` | {HOW[hook.call]} "
            f"| {hook.fallback.replace('``', '`')} | {hermes.replace('``', '`')} "
            f"| {hook.hermes_since or 'never'} |"
        )
    return "\n".join(rows) + "\n"


def render_host() -> str:
    from hermes_core.hooks._specs import HOOKS

    rows = [
        "| `ContextHost` method | engine hook it calls | how | when the engine fails or is late |",
        "|---|---|---|---|",
    ]
    for hook in sorted(HOOKS.values(), key=lambda h: h.host_method):
        renamed = "" if hook.host_method == hook.name else " (renamed)"
        rows.append(
            f"| `{hook.host_method}` | `{hook.name}`{renamed} | {HOW[hook.call]} "
            f"| {hook.fallback.replace('``', '`')} |"
        )
    return "\n".join(rows) + "\n"

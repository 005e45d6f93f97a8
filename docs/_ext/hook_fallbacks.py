"""A griffe extension for the docs build: each engine hook's section ends with how the host
calls it and what the agent gets when the engine fails or is late.

Both come from the hook's declaration (``hermes_core.HOOKS``), the one place
the contract is written, so the contract page says per hook what the table
says for all of them.
"""

from __future__ import annotations

from typing import Any

import griffe

#: How each kind of call is said on the page.
CALLS = {
    "inline": "inline, on the agent's thread (it must only read counters)",
    "bounded": "bounded by ``compression.hook_timeout_seconds``, on the host's pool",
    "pass": "as a compression pass, bounded by ``compression.context_timeout_seconds``",
    "background": "on the host's pool, in the background: the agent never waits for it",
}


class HookFallbacks(griffe.Extension):
    """Append the call kind and the fallback to each hook of ``ContextEngineSpec``."""

    def on_package(self, *, pkg: griffe.Module, loader: griffe.GriffeLoader, **kwargs: Any) -> None:
        if pkg.path != "hermes_core":
            return
        from hermes_core import HOOKS

        spec = pkg["hooks._specs.ContextEngineSpec"]
        for name, hook in HOOKS.items():
            member = spec.members.get(name)
            if member is None or member.docstring is None:
                continue
            call = CALLS[hook.call]
            member.docstring.value += (
                f"\n\n``ContextHost.{hook.host_method}`` calls it {call}. "
                f"When the engine fails or is late, the agent gets: {hook.fallback}."
            )

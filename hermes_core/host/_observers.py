"""Observer hooks (``hermes_context_*``) called through pluggy, each observer on its own.

pluggy's hook loop stops at the first implementation that raises; an
observer must never disturb the agent or the observers after it. So each
implementation is called through its own subset of the hook, in pluggy's
order (last registered first, ``tryfirst``/``trylast`` honoured), which
keeps ``PluginManager.enable_tracing()`` and any hook-call monitoring
working for observers.
"""

from __future__ import annotations

from typing import Any

import pluggy

from hermes_core._containment import reraise_user_interrupt
from hermes_core._log import logger

__all__ = ["notify"]


def notify(plugins: pluggy.PluginManager, hook: str, **kwargs: Any) -> None:
    """Call every implementation of ``hook`` with ``kwargs``; one that raises is logged
    as ``hermes_plugin.hook_failed`` and stops no other."""
    impls = getattr(plugins.hook, hook).get_hookimpls()
    for impl in reversed(impls):  # pluggy calls the list from its end
        others = [other.plugin for other in impls if other is not impl]
        try:
            plugins.subset_hook_caller(hook, others)(**kwargs)
        except BaseException as exc:
            reraise_user_interrupt(exc)
            logger.warning(
                "hermes_plugin.hook_failed",
                hook=hook,
                plugin=impl.plugin_name,
                error=f"{type(exc).__name__}: {exc}",
            )

"""The structlog logger hermes-context emits its events on.

Events are stable dotted names with key-value fields
(``context_engine.duplicate_rejected``, ``name=``, ``kept=``, ``rejected=``),
so users can filter and alert on them. hermes-context never configures structlog;
the embedding application does.
"""

from __future__ import annotations

import structlog

logger = structlog.get_logger("hermes_core")

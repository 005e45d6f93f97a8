"""Who writes an engine's summaries, in words, for reports that compare engines."""

from __future__ import annotations

from hermes_core.registry import EngineRegistry

__all__ = ["summarizer_of"]


def summarizer_of(registry: EngineRegistry) -> str:
    """The auxiliary LLM's model the engines are given, or that there is none (an engine
    then writes its own deterministic summary)."""
    llm = registry.auxiliary_llm()
    model = getattr(getattr(llm, "config", None), "model", None)
    return f"LLM {model}" if model else "no LLM configured: the engine's deterministic summary"

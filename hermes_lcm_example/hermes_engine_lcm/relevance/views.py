"""What a message's stored vectors are: the message alone, and the message in context.

A turn is often understood only with the one it answers: "Yes, in July, with
my sisters" says nothing of Canada; the question before it does. Each message
is therefore embedded twice, alone and after the message before it in its
session, and a query ranks the messages by each view; the two orders are
fused with the keyword order (:func:`~hermes_engine_lcm.relevance.ranking.fuse`).

The previous message is cut to :data:`CONTEXT_CHARS` so that a long tool
output before a short reply cannot push the reply out of the model's window
(all-MiniLM-L6-v2 reads 256 word pieces, about 1,000 characters of English).
"""

from __future__ import annotations

__all__ = ["CONTEXT_CHARS", "VIEWS", "label", "view_texts"]

#: Vectors stored per message: alone, in context.
VIEWS = 2
#: Characters of the previous message a message's context view starts with, at most.
CONTEXT_CHARS = 500


def label(fingerprint: str) -> str:
    """The label a store gives this layout's rows for the model of ``fingerprint`` (its
    files' digest and width): rows of another label (another model, a model changed in
    place, the one-vector layout) are embedded again, and rows of one model share it
    whatever name or path reached it."""
    return f"{fingerprint} +context"


def view_texts(text: str, previous: str) -> tuple[str, str]:
    """The texts a message is embedded as: itself, and itself after (the start of) the
    message before it."""
    if not previous:
        return text, text
    return text, f"{previous[:CONTEXT_CHARS]}\n{text}"

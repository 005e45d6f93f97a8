"""Relevance beyond keywords: sentence embeddings for LCM (``hermes-engine-lcm[embeddings]``)."""

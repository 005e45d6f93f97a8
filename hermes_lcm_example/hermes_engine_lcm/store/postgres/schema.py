"""The PostgreSQL schema, as numbered migrations (``lcm_schema.version`` counts those applied).

The same tables as SQLite's (``store.schema``), with PostgreSQL's types and
its own full-text search: a stored ``tsvector`` column per searchable table
with a GIN index (English stemming for messages, as SQLite's porter index;
none for summaries, as SQLite's unicode61), and ``pg_trgm`` trigram indexes
for substring search in text written without spaces (CJK), kept to the rows
that hold such text, as on SQLite. Ids come from sequences, so writers of
different sessions never wait on each other for one.
"""

from __future__ import annotations

__all__ = ["EMBEDDINGS_TABLE", "MIGRATIONS"]

MIGRATIONS: tuple[str, ...] = (
    """
    CREATE EXTENSION IF NOT EXISTS pg_trgm;
    CREATE TABLE sessions (
        id TEXT PRIMARY KEY,
        created_at DOUBLE PRECISION NOT NULL,
        next_seq BIGINT NOT NULL DEFAULT 0,
        next_position BIGINT NOT NULL DEFAULT 0,
        handed_count BIGINT NOT NULL DEFAULT 0,
        handed_head_fp TEXT,
        handed_mid_fp TEXT,
        handed_tail_fp TEXT,
        handed_seq BIGINT NOT NULL DEFAULT -1
    );
    CREATE SEQUENCE messages_id_seq;
    CREATE TABLE messages (
        id BIGINT PRIMARY KEY,
        session_id TEXT NOT NULL REFERENCES sessions(id),
        seq BIGINT NOT NULL,
        role TEXT NOT NULL,
        text TEXT NOT NULL,
        body TEXT NOT NULL,
        fp TEXT NOT NULL,
        tokens INTEGER NOT NULL,
        created_at DOUBLE PRECISION NOT NULL,
        cjk INTEGER NOT NULL DEFAULT 0,
        words TSVECTOR GENERATED ALWAYS AS (to_tsvector('english', text)) STORED,
        UNIQUE (session_id, seq)
    );
    CREATE INDEX messages_words ON messages USING GIN (words);
    CREATE INDEX messages_trigrams ON messages USING GIN (text gin_trgm_ops) WHERE cjk = 1;
    CREATE SEQUENCE summaries_id_seq;
    CREATE TABLE summaries (
        id BIGINT PRIMARY KEY,
        session_id TEXT NOT NULL REFERENCES sessions(id),
        depth INTEGER NOT NULL,
        level TEXT NOT NULL,
        text TEXT NOT NULL,
        tokens INTEGER NOT NULL,
        first_seq BIGINT NOT NULL,
        last_seq BIGINT NOT NULL,
        first_at DOUBLE PRECISION NOT NULL,
        last_at DOUBLE PRECISION NOT NULL,
        created_at DOUBLE PRECISION NOT NULL,
        cjk INTEGER NOT NULL DEFAULT 0,
        words TSVECTOR GENERATED ALWAYS AS (to_tsvector('simple', text)) STORED
    );
    CREATE INDEX summaries_by_session ON summaries(session_id, depth);
    CREATE INDEX summaries_words ON summaries USING GIN (words);
    CREATE INDEX summaries_trigrams ON summaries USING GIN (text gin_trgm_ops);
    CREATE TABLE summary_children (
        summary_id BIGINT NOT NULL REFERENCES summaries(id),
        ord INTEGER NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('message', 'summary')),
        child_id BIGINT NOT NULL,
        PRIMARY KEY (summary_id, ord)
    );
    CREATE INDEX summary_children_by_child ON summary_children(kind, child_id);
    CREATE TABLE context_items (
        session_id TEXT NOT NULL REFERENCES sessions(id),
        position BIGINT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('message', 'summary')),
        ref_id BIGINT NOT NULL,
        tokens INTEGER NOT NULL,
        PRIMARY KEY (session_id, position)
    );
    """,
)

#: The embeddings table (see ``store.embeddings``), made whether or not embeddings are on.
EMBEDDINGS_TABLE = (
    "CREATE TABLE IF NOT EXISTS embeddings ("
    " message_id BIGINT PRIMARY KEY REFERENCES messages(id),"
    " session_id TEXT NOT NULL, model TEXT NOT NULL, vector BYTEA NOT NULL)",
    "CREATE INDEX IF NOT EXISTS embeddings_by_session ON embeddings(session_id, message_id)",
)

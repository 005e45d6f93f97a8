"""The database schema, as numbered migrations (``PRAGMA user_version`` counts those applied)."""

from __future__ import annotations

__all__ = ["CORE_MIGRATIONS", "EMBEDDINGS_TABLE", "FTS_MIGRATIONS"]

#: Tables every store has. Messages and summaries are immutable once written;
#: ``context_items`` is the active context of each session.
CORE_MIGRATIONS: tuple[str, ...] = (
    """
    CREATE TABLE sessions (
        id TEXT PRIMARY KEY,
        created_at REAL NOT NULL,
        next_seq INTEGER NOT NULL DEFAULT 0,
        next_position INTEGER NOT NULL DEFAULT 0,
        handed_count INTEGER NOT NULL DEFAULT 0,
        handed_head_fp TEXT,
        handed_mid_fp TEXT,
        handed_tail_fp TEXT,
        handed_seq INTEGER NOT NULL DEFAULT -1
    );
    CREATE TABLE messages (
        id INTEGER PRIMARY KEY,
        session_id TEXT NOT NULL REFERENCES sessions(id),
        seq INTEGER NOT NULL,
        role TEXT NOT NULL,
        text TEXT NOT NULL,
        body TEXT NOT NULL,
        fp TEXT NOT NULL,
        tokens INTEGER NOT NULL,
        created_at REAL NOT NULL,
        cjk INTEGER NOT NULL DEFAULT 0,
        UNIQUE (session_id, seq)
    );
    CREATE TABLE summaries (
        id INTEGER PRIMARY KEY,
        session_id TEXT NOT NULL REFERENCES sessions(id),
        depth INTEGER NOT NULL,
        level TEXT NOT NULL,
        text TEXT NOT NULL,
        tokens INTEGER NOT NULL,
        first_seq INTEGER NOT NULL,
        last_seq INTEGER NOT NULL,
        first_at REAL NOT NULL,
        last_at REAL NOT NULL,
        created_at REAL NOT NULL,
        cjk INTEGER NOT NULL DEFAULT 0
    );
    CREATE INDEX summaries_by_session ON summaries(session_id, depth);
    CREATE TABLE summary_children (
        summary_id INTEGER NOT NULL REFERENCES summaries(id),
        ord INTEGER NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('message', 'summary')),
        child_id INTEGER NOT NULL,
        PRIMARY KEY (summary_id, ord)
    ) WITHOUT ROWID;
    CREATE INDEX summary_children_by_child ON summary_children(kind, child_id);
    CREATE TABLE context_items (
        session_id TEXT NOT NULL REFERENCES sessions(id),
        position INTEGER NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('message', 'summary')),
        ref_id INTEGER NOT NULL,
        tokens INTEGER NOT NULL,
        PRIMARY KEY (session_id, position)
    ) WITHOUT ROWID;
    """,
)

#: Full-text indexes kept in sync inside the writing transaction (messages by
#: one INSERT ... SELECT per ingested batch, about 3x faster than a trigger per
#: row; summaries by triggers):
#: unicode61 for words; trigram for text in scripts written without spaces
#: (CJK), which unicode61 cannot split into words. Trigram indexing costs
#: about three times unicode61, so only such text pays for it.
_FTS_TABLES = """
CREATE VIRTUAL TABLE messages_fts USING fts5(text, content='messages', content_rowid='id');
CREATE VIRTUAL TABLE messages_tri USING fts5(
    text, content='messages', content_rowid='id', tokenize='trigram'
);
CREATE VIRTUAL TABLE summaries_fts USING fts5(text, content='summaries', content_rowid='id');
CREATE VIRTUAL TABLE summaries_tri USING fts5(
    text, content='summaries', content_rowid='id', tokenize='trigram'
);
CREATE TRIGGER summaries_index AFTER INSERT ON summaries BEGIN
    INSERT INTO summaries_fts(rowid, text) VALUES (new.id, new.text);
END;
CREATE TRIGGER summaries_index_cjk AFTER INSERT ON summaries WHEN new.cjk BEGIN
    INSERT INTO summaries_tri(rowid, text) VALUES (new.id, new.text);
END;
INSERT INTO messages_fts(messages_fts) VALUES ('rebuild');
INSERT INTO summaries_fts(summaries_fts) VALUES ('rebuild');
INSERT INTO messages_tri(rowid, text) SELECT id, text FROM messages WHERE cjk;
INSERT INTO summaries_tri(rowid, text) SELECT id, text FROM summaries WHERE cjk;
INSERT INTO messages_fts(messages_fts, rank) VALUES ('crisismerge', 64);
INSERT INTO summaries_fts(summaries_fts, rank) VALUES ('crisismerge', 64);
"""

#: Messages are searched by their stemmed words (porter over unicode61): "painted"
#: finds "painting", and a question in plain language ranks by what it is about.
#: The stemmed index replaces the unicode61 one, so ingest pays for one index.
_STEM_INDEX = """
CREATE VIRTUAL TABLE messages_stem USING fts5(
    text, content='messages', content_rowid='id', tokenize='porter unicode61'
);
INSERT INTO messages_stem(messages_stem) VALUES ('rebuild');
INSERT INTO messages_stem(messages_stem, rank) VALUES ('crisismerge', 64);
DROP TABLE messages_fts;
"""

#: The migrations that need FTS5, applied after CORE_MIGRATIONS in this order.
FTS_MIGRATIONS: tuple[str, ...] = (_FTS_TABLES, _STEM_INDEX)

#: The embeddings table (see ``store.embeddings``), made whether or not embeddings are on.
EMBEDDINGS_TABLE = (
    "CREATE TABLE IF NOT EXISTS embeddings ("
    " message_id INTEGER PRIMARY KEY REFERENCES messages(id),"
    " session_id TEXT NOT NULL, model TEXT NOT NULL, vector BLOB NOT NULL)",
    "CREATE INDEX IF NOT EXISTS embeddings_by_session ON embeddings(session_id, message_id)",
)

"""The SQLite store: schema, connections, messages, the summary DAG, search."""

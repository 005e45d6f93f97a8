"""The SQLite backend of the store: the default, one file under ``$HERMES_HOME``."""

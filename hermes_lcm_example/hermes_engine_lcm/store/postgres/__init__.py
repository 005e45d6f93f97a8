"""The store on a PostgreSQL server (the ``postgres`` extra: psycopg 3 and its pool)."""

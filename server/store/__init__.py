"""The stores, in SQLModel tables on SQLite or PostgreSQL: the event log, the snapshots beside
it, table talk and the notices' outbox; and migrate.py, which runs migrations/ on them."""

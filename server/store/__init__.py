"""The event log: SQLModel tables on SQLite or PostgreSQL, and their migrations."""

"""Alembic environment: migrates the database of the project's DATABASE_URL setting, or the
connection handed in by server/store/migrate.py (the server's start-up)."""

from __future__ import annotations

from logging.config import fileConfig

from alembic import context
from sqlalchemy import Connection
from sqlmodel import SQLModel

from config.settings import Settings
from server.store.migrate import adopt_legacy, exclusive
from server.store.sql import database_url, make_engine

config = context.config
target_metadata = SQLModel.metadata  # server.store.sql has put event_records on it


def run_offline() -> None:
    """`alembic upgrade head --sql`: print the SQL instead of running it."""
    context.configure(
        url=database_url(config.get_main_option("sqlalchemy.url") or Settings().DATABASE_URL),
        target_metadata=target_metadata,
        literal_binds=True,
    )
    with context.begin_transaction():
        context.run_migrations()


def run_online() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        migrate(connection)
        return
    settings = Settings()
    url = config.get_main_option("sqlalchemy.url") or settings.DATABASE_URL
    engine = make_engine(url, synchronous=settings.SQLITE_SYNCHRONOUS)
    try:
        with engine.connect() as connection:
            migrate(connection)
    finally:
        engine.dispose()


def migrate(connection: Connection) -> None:
    with exclusive(connection):
        context.configure(connection=connection, target_metadata=target_metadata)
        adopt_legacy(connection, context.get_context(), context.script)
        with context.begin_transaction():
            context.run_migrations()


if config.config_file_name is not None and "connection" not in config.attributes:
    fileConfig(config.config_file_name, disable_existing_loggers=False)
if context.is_offline_mode():
    run_offline()
else:
    run_online()
